// Benchmark: what the model gateway adds to a model call. The same N streamed calls go to the
// scripted model server directly and through the gateway (loopback TCP, and the Unix socket a
// confined agent uses), interleaved call by call in one run so both see the same machine. For each
// call: the time to the answer's end and to its first byte; the gateway's added time is the
// difference from the direct call next to it. The targets: p50 ≤ 2 ms a call, ≤ 5 ms to the
// first streamed byte.
//
//   npm run compile && npm run bench:gateway [-- <calls> [protocol]]
import * as http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { urlFor, type WireProtocol } from '../src/core/agents/endpoint/endpoint';
import { ModelGateway } from '../src/core/gateway';
import { answer, modelRequest, REAL_KEY, send, type Reach } from '../test/unit/gateway/gateway-fixture';
import { ALL_ADAPTERS } from '../scripts/stand-in-model/adapters';
import { startModelServer } from '../scripts/stand-in-model/model-server';

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (ms: number): string => ms.toFixed(2).padStart(7);

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? '500');
  const protocol = (process.argv[3] ?? 'chat-completions') as WireProtocol;
  const server = await startModelServer({ brain: () => answer(), adapters: ALL_ADAPTERS, requireKey: REAL_KEY });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sweci-gw-bench-'));
  const gateway = await ModelGateway.start({ socketPath: path.join(dir, 'gw.sock'), tcp: true });
  const t = gateway.openTry({
    protocol,
    upstream: { url: urlFor(protocol, server.origin), key: REAL_KEY },
    callsFile: path.join(dir, 'calls.jsonl'),
    bounds: {},
  });
  // Clients keep their connections, as agent CLIs do.
  const ways: Array<{ name: string; reach: Reach; token: string; agent: http.Agent }> = [
    { name: 'direct', reach: { origin: server.origin }, token: REAL_KEY, agent: new http.Agent({ keepAlive: true }) },
    { name: 'gateway tcp', reach: { origin: gateway.origin! }, token: t.token, agent: new http.Agent({ keepAlive: true }) },
    { name: 'gateway unix', reach: { socketPath: gateway.socketPath }, token: t.token, agent: new http.Agent({ keepAlive: true }) },
  ];
  const total = new Map(ways.map((w) => [w.name, [] as number[]]));
  const first = new Map(ways.map((w) => [w.name, [] as number[]]));
  // The direct client talks to the server's own base URL: the same path the gateway appends.
  const call = async (w: (typeof ways)[number]) => {
    const r = modelRequest(protocol, { stream: true, token: w.token });
    const res = await send(protocol, w.reach, r, w.agent);
    if (res.status !== 200) throw new Error(`${w.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
    return res;
  };
  for (let i = 0; i < 30; i++) for (const w of ways) await call(w);
  for (let i = 0; i < n; i++) {
    // Rotate who goes first so no way always gets the warm cache.
    for (let k = 0; k < ways.length; k++) {
      const w = ways[(i + k) % ways.length];
      const res = await call(w);
      total.get(w.name)!.push(res.totalMs);
      first.get(w.name)!.push(res.firstChunkMs ?? res.totalMs);
    }
  }
  const summary = await t.close();
  const direct = total.get('direct')!;
  const directFirst = first.get('direct')!;
  console.log(`model gateway bench: ${n} streamed ${protocol} calls each way, interleaved (node ${process.version})`);
  console.log(
    `${'way'.padEnd(14)} ${'p50 ms'.padStart(7)} ${'p90 ms'.padStart(7)} ${'1st p50'.padStart(7)} ${'1st p90'.padStart(7)} | added: ${'p50'.padStart(7)} ${'p90'.padStart(7)} ${'1st p50'.padStart(7)} ${'1st p90'.padStart(7)}`,
  );
  for (const w of ways) {
    const tt = total.get(w.name)!;
    const ff = first.get(w.name)!;
    const added = tt.map((v, i) => v - direct[i]);
    const addedFirst = ff.map((v, i) => v - directFirst[i]);
    const row = [percentile(tt, 50), percentile(tt, 90), percentile(ff, 50), percentile(ff, 90)].map(fmt).join(' ');
    const more =
      w.name === 'direct' ? '' : [percentile(added, 50), percentile(added, 90), percentile(addedFirst, 50), percentile(addedFirst, 90)].map(fmt).join(' ');
    console.log(`${w.name.padEnd(14)} ${row} | ${'       '}${more}`);
  }
  console.log(
    `gateway recorded ${summary.calls} calls, ${summary.usage.input} input / ${summary.usage.output} output tokens; target: added p50 ≤ 2 ms, first byte ≤ 5 ms`,
  );
  await gateway.close();
  await server.close();
  for (const w of ways) w.agent.destroy();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
