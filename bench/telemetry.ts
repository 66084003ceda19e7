// Benchmark: what OpenTelemetry traces add to a model call through the gateway (issue 49). The
// same streamed calls go through the gateway with telemetry off and on (spans sent to an OTLP
// receiver on the loopback), in alternating blocks in one run so both see the same machine; the
// on-calls' try has a parent span registered, as a loop's try has. Target: p50 added ≤ 0.5 ms.
//
//   npm run compile && npm run bench:telemetry [-- <calls>]
import * as http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { urlFor } from '../src/core/agents/endpoint/endpoint';
import { ModelGateway } from '../src/core/gateway';
import { parentOf, registerTry, startTracing, stopTracing } from '../src/core/telemetry/tracing';
import { answer, modelRequest, REAL_KEY, send } from '../test/unit/gateway/gateway-fixture';
import { ALL_ADAPTERS } from '../scripts/stand-in-model/adapters';
import { startModelServer } from '../scripts/stand-in-model/model-server';

const percentile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? '400');
  const protocol = 'chat-completions' as const;
  let spans = 0;
  const receiver = http.createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      spans++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const tracesUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;
  const server = await startModelServer({ brain: () => answer(), adapters: ALL_ADAPTERS, requireKey: REAL_KEY });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sweci-otel-bench-'));
  const gateway = await ModelGateway.start({ socketPath: path.join(dir, 'gw.sock'), tcp: true });
  const agent = new http.Agent({ keepAlive: true });
  const settings = { tracesUrl, protocol: 'http/protobuf' as const, captureContent: false, serviceName: 'sweci-bench' };
  const times = { off: [] as number[], on: [] as number[] };
  const block = async (mode: 'off' | 'on', calls: number, keep: boolean) => {
    const callsFile = path.join(dir, `${mode}-${Math.random()}.jsonl`);
    if (mode === 'on') {
      const tracing = startTracing(settings)!;
      registerTry(callsFile, parentOf(tracing.tracer.startSpan('bench try')));
    }
    const t = gateway.openTry({ protocol, upstream: { url: urlFor(protocol, server.origin), key: REAL_KEY }, callsFile, bounds: {} });
    for (let i = 0; i < calls; i++) {
      const res = await send(protocol, { origin: gateway.origin! }, modelRequest(protocol, { stream: true, token: t.token }), agent);
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      if (keep) times[mode].push(res.totalMs);
    }
    await t.close();
    if (mode === 'on') await stopTracing(10_000);
  };
  await block('off', 30, false);
  await block('on', 30, false);
  const size = 50;
  for (let done = 0; done < n; done += size) {
    const order: Array<'off' | 'on'> = (done / size) % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const mode of order) await block(mode, size, true);
  }
  const p50 = { off: percentile(times.off, 50), on: percentile(times.on, 50) };
  const p90 = { off: percentile(times.off, 90), on: percentile(times.on, 90) };
  console.log(
    `telemetry bench: ${times.on.length} streamed calls each way through the gateway, alternating blocks of ${size} (node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${os.cpus().length} cpus)`,
  );
  console.log(`off: p50 ${p50.off.toFixed(3)} ms, p90 ${p90.off.toFixed(3)} ms`);
  console.log(`on:  p50 ${p50.on.toFixed(3)} ms, p90 ${p90.on.toFixed(3)} ms`);
  console.log(
    `added p50 ${(p50.on - p50.off).toFixed(3)} ms (ratio ${(p50.on / p50.off).toFixed(3)}); target ≤ 0.5 ms; ${spans} export requests reached the receiver`,
  );
  await gateway.close();
  await server.close();
  agent.destroy();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
