// Benchmark: what confining an agent step's network to the model gateway costs. The same
// agent-like step — python starts, makes SWECI_BENCH_CALLS (default 5) HTTP calls to a "model"
// that streams a short answer, and exits — runs SWECI_BENCH_STEPS (default 10) times in the
// bubblewrap sandbox, either with the network `gateway` (its own network namespace, the model
// reached through the forwarder on the step's 127.0.0.1 and the gateway's Unix socket) or `open`
// (the host's network, the model on this machine's loopback, as before the gateway). farm-bench
// times the two modes A B A B and prints the ratio. `none` (a network namespace, no forwarder,
// no calls) against `open` with SWECI_BENCH_CALLS=0 splits the step's added time between the
// namespace and the forwarder:
//
//   npx tsc -p .
//   farm-bench -n 5 --vs 'node out/bench/agent-network.js open' -- node out/bench/agent-network.js gateway
//   SWECI_BENCH_CALLS=0 farm-bench -n 5 --vs 'node out/bench/agent-network.js open' -- node out/bench/agent-network.js none
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { findBubblewrap, type NetworkConfinement } from '../src/core/runtime/sandbox';

const STEPS = Number(process.env.SWECI_BENCH_STEPS ?? 10);
const CALLS = process.argv[2] === 'none' ? 0 : Number(process.env.SWECI_BENCH_CALLS ?? 5);
const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
const PORT = 8931;

const STEP = `
import http.client, sys
port, calls = int(sys.argv[1]), int(sys.argv[2])
for i in range(calls):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    c.request('POST', '/v1/chat/completions', body=b'{"messages": []}', headers={'content-type': 'application/json'})
    r = c.getresponse()
    assert r.status == 200 and r.read().count(b'data:') == 4, 'bad answer'
    c.close()
`;

function model(): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const word of ['Hello', ' from', ' the model']) res.write(`data: {"delta": ${JSON.stringify(word)}}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'gateway' && mode !== 'open' && mode !== 'none') throw new Error('usage: agent-network.js gateway|open|none');
  const bwrap = await findBubblewrap();
  if (!bwrap) throw new Error('bubblewrap cannot run here');
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-net-')));
  const app = path.join(dir, 'app');
  await fs.mkdir(app);
  const server = model();
  let network: NetworkConfinement;
  let port: number;
  if (mode === 'gateway') {
    const socket = path.join(dir, 'gateway.sock');
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    await fs.chmod(socket, 0o666);
    network = { kind: 'gateway', socket, port: PORT };
    port = PORT;
  } else {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    network = { kind: mode };
    port = (server.address() as AddressInfo).port;
  }
  const runtime = new LocalRuntime({ bwrap });
  try {
    for (let i = 0; i < STEPS; i++) {
      const r = await runtime.run({
        command: PYTHON,
        args: ['-c', STEP, String(port), String(CALLS)],
        cwd: app,
        mounts: [{ source: app, target: '/app' }],
        confine: { hide: [], network },
        timeoutMs: 60_000,
      });
      if (r.exitCode !== 0) throw new Error(`step ${i} failed: ${r.stdout}${r.stderr}`);
    }
  } finally {
    await runtime.dispose();
    server.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
