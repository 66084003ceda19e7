// Benchmark: what an OTLP endpoint that cannot be reached costs a whole run (issue 49: nothing but
// a warning; target ≤ 1.05×). The same `sweci run` (a one-task SWE-Bench-CL sequence of the test
// fixture, scripted agents, one iteration, local runtime) runs as its own process, alternately
// without telemetry and with OTEL_EXPORTER_OTLP_ENDPOINT at a loopback port nothing listens on,
// each into a fresh experiment; the ratio is taken pair by pair and its median printed.
//
//   npm run compile && npm run bench:telemetry-dead [-- <pairs>]
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSequenceFixture } from '../test/unit/helpers/sequence-fixture';

const cli = path.resolve(__dirname, '../src/cli/main.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A loopback port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function main(): Promise<void> {
  const pairs = Number(process.argv[2] ?? '5');
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-otel-dead-')));
  try {
    const fixture = await buildSequenceFixture(dir);
    const doc = JSON.parse(await fs.readFile(fixture.sequenceFile, 'utf8')) as { sequences: Array<{ tasks: unknown[] }> };
    doc.sequences[0].tasks = doc.sequences[0].tasks.slice(0, 1);
    await fs.writeFile(fixture.sequenceFile, JSON.stringify(doc));
    const endpoint = `http://127.0.0.1:${await deadPort()}`;
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    for (const k of Object.keys(env)) if (k.startsWith('OTEL_')) delete env[k];
    let runs = 0;
    const run = (telemetry: boolean): number => {
      const experiment = path.join(dir, `exp-${++runs}`);
      const args = ['run', '--sequence', fixture.sequenceFile, '--repos', fixture.reposDir, '--experiment', experiment, '--config', fixture.settingsFile];
      const started = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [cli, ...args, '--max-iterations', '1', '--runtime', 'local', '--format', 'junit', '--json'], {
        encoding: 'utf8',
        env: telemetry ? { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } : env,
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(`sweci run exited ${r.status}: ${r.stderr.slice(-2000)}`);
      if (telemetry && !/OpenTelemetry: spans could not be sent/.test(r.stderr)) throw new Error('the dead endpoint gave no warning: was telemetry on?');
      return ms;
    };
    run(false); // warm-up: the bytecode seed and the file cache
    const off: number[] = [];
    const on: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < pairs; i++) {
      // Alternating order, so a drift of the machine's speed falls on both sides.
      const [a, b] = i % 2 === 0 ? [run(false), run(true)] : ((x, y) => [y, x])(run(true), run(false));
      off.push(a);
      on.push(b);
      ratios.push(b / a);
    }
    console.log(
      `telemetry dead-endpoint bench: ${pairs} pairs of one sweci run each (node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg()[0].toFixed(2)})`,
    );
    console.log(`without telemetry: median ${(median(off) / 1000).toFixed(2)} s (${off.map((m) => (m / 1000).toFixed(2)).join(', ')})`);
    console.log(`dead endpoint:     median ${(median(on) / 1000).toFixed(2)} s (${on.map((m) => (m / 1000).toFixed(2)).join(', ')})`);
    console.log(`ratio (pairwise median): ${median(ratios).toFixed(3)}; target ≤ 1.05`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
