// Benchmark: `sweci dataset download` against curl, both fetching the same files from the loopback
// Hub of test/harness/hub-server (4 tasks: a 1 MB code.zip and a 400 MB image.tar.gz each, the
// size of the published dataset's images, 346 to 595 MB), curl one file after another (one
// process, every URL), sweci with --jobs 1 so both read one file at a time. The images were 64 MB
// until the figures showed what that weighed: a per-process cost (Node's start-up, the listing)
// that a 50 GB download pays once counted against 273 MB, and per-file costs against a sixth of a
// real file; at 400 MB both sides fetch what a user fetches (SWECI_BENCH_IMAGE_MB=64 gives the old
// bench).
// They run in turn (A B A B …) and the ratio is taken pair by pair; quote the medians. Each pair
// also prints the CPU each client spent and what the loopback server (in this process) spent
// serving it: on a loaded machine the ratios follow those more than anything else. sweci also
// verifies each file's SHA-256 (on a second thread that reads back what was written), which curl does not. Two ratios: the whole process
// (sweci's Node start-up and its listing of the repository included: a fixed cost that weighs on
// 1.6 GB and not on 50 GB) and the data files alone. SWECI_BENCH_IMAGE_MB sets the image size
// (400). Then the resume: a download
// killed (SIGKILL) at about half of its bytes is run again, and the bytes the server sends the
// second time are compared with the bytes that were missing.
//
//   npm run compile && npm run build && npm run bench:download        (SWECI_BENCH_RUNS pairs, default 5)
//   SWECI_BENCH_CLI=<another build's dist/cli.js> compares an older build the same way.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startHubServer, type HubServer } from '../test/harness/hub-server';

const RUNS = Number(process.env.SWECI_BENCH_RUNS ?? 5);
const CLI = path.resolve(process.env.SWECI_BENCH_CLI ?? path.join(__dirname, '../../dist/cli.js'));
const TASKS = 4;
const IMAGE_MB = Number(process.env.SWECI_BENCH_IMAGE_MB ?? 400);

/**
 * Runs a command; `transfer` (for sweci --json) is the seconds from its first data file's start to
 * its last file's end as its events arrive: the download without the process's start-up and listing.
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { done: Promise<number>; kill: () => void; transfer: () => number } {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  let first: number | undefined;
  let last: number | undefined;
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
      const line = out.slice(0, i);
      out = out.slice(i + 1);
      if (line.includes('"type":"file-start"') && line.includes('"path":"data/')) first ??= performance.now();
      if (line.includes('"type":"file-done"')) last = performance.now();
    }
  });
  const done = new Promise<number>((resolve, reject) => {
    const start = performance.now();
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0 || signal === 'SIGKILL') resolve((performance.now() - start) / 1000);
      else reject(new Error(`${command} exited with ${code}: ${err}`));
    });
  });
  return { done, kill: () => child.kill('SIGKILL'), transfer: () => (first !== undefined && last !== undefined ? (last - first) / 1000 : NaN) };
}

/**
 * Processor seconds, as Linux accounts them (/proc/self/stat, clock ticks of 10 ms): this process's
 * own (the loopback server; the bench's reading of sweci's events is a few lines) and its waited-for
 * children's (sweci with its threads, or curl). NaN where there is no /proc.
 */
function cpu(): { self: number; children: number } {
  try {
    // After the command's ")": utime stime cutime cstime are fields 12 to 15.
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ').map(Number);
    return { self: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100 };
  } catch {
    return { self: NaN, children: NaN };
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The machine's load with each figure: on a shared machine it says how much a ratio can be trusted. */
const load = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`;

async function main(): Promise<void> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-download-'));
  let hub: HubServer | undefined;
  try {
    const root = path.join(tmp, 'hub');
    await fs.mkdir(path.join(root, 'metadata'), { recursive: true });
    const rows = ['task_id,current_sha,target_sha'];
    for (let i = 0; i < TASKS; i++) {
      const id = `bench__task-${i}`;
      rows.push(`${id},${'a'.repeat(40)},${'b'.repeat(40)}`);
      await fs.mkdir(path.join(root, 'data', id), { recursive: true });
      await fs.writeFile(path.join(root, 'data', id, 'code.zip'), randomBytes(1 << 20));
      await fs.writeFile(path.join(root, 'data', id, 'image.tar.gz'), randomBytes(IMAGE_MB << 20));
    }
    await fs.writeFile(path.join(root, 'metadata', 'default.csv'), rows.join('\n') + '\n');
    hub = await startHubServer(root, { pageSize: 50 });
    const server = hub;
    const files = server.files().filter((f) => f.path.startsWith('data/'));
    const total = files.reduce((n, f) => n + f.size, 0);
    const env: NodeJS.ProcessEnv = { ...process.env, HF_ENDPOINT: server.endpoint };
    delete env.HF_TOKEN;
    const sweciArgs = (into: string) => [CLI, 'dataset', 'download', '--into', into, '--jobs', '1', '--json'];
    const curlArgs = (into: string) => [
      '-sSfL',
      '--create-dirs',
      ...files.flatMap((f) => ['-o', path.join(into, f.path), `${server.endpoint}/datasets/${server.repo}/resolve/main/${f.path}`]),
    ];
    console.log(
      `bench:download: ${files.length} files, ${(total / 1e6).toFixed(0)} MB from ${server.endpoint}, ${RUNS} pairs (sweci --jobs 1 vs curl, one file after another); ${load()}`,
    );
    const ratios: number[] = [];
    const transferRatios: number[] = [];
    const a: number[] = [];
    const b: number[] = [];
    const cpuA: number[] = [];
    const cpuB: number[] = [];
    const serverA: number[] = [];
    const serverB: number[] = [];
    for (let i = -1; i < RUNS; i++) {
      const sweciDir = path.join(tmp, `sweci-${i}`);
      const curlDir = path.join(tmp, `curl-${i}`);
      const s0 = cpu();
      const sweci = run(process.execPath, sweciArgs(sweciDir), env);
      const ta = await sweci.done;
      const s1 = cpu();
      const tb = await run('curl', curlArgs(curlDir)).done;
      const s2 = cpu();
      await fs.rm(sweciDir, { recursive: true, force: true });
      await fs.rm(curlDir, { recursive: true, force: true });
      if (i < 0) continue; // the warm-up pair (page cache, the bundle's first load)
      a.push(ta);
      b.push(tb);
      ratios.push(tb / ta);
      transferRatios.push(tb / sweci.transfer());
      cpuA.push(s1.children - s0.children);
      cpuB.push(s2.children - s1.children);
      serverA.push(s1.self - s0.self);
      serverB.push(s2.self - s1.self);
      console.log(
        `  pair ${i + 1}: sweci ${ta.toFixed(2)} s (data files ${sweci.transfer().toFixed(2)} s), curl ${tb.toFixed(2)} s, ` +
          `throughput ratio sweci/curl ${(tb / ta).toFixed(3)} whole process, ${(tb / sweci.transfer()).toFixed(3)} data files; ` +
          `CPU sweci ${cpuA.at(-1)!.toFixed(2)} s, curl ${cpuB.at(-1)!.toFixed(2)} s, server ${serverA.at(-1)!.toFixed(2)} s and ${serverB.at(-1)!.toFixed(2)} s`,
      );
    }
    const mb = total / 1e6;
    console.log(
      `sweci: median ${median(a).toFixed(2)} s (${(mb / median(a)).toFixed(0)} MB/s); curl: median ${median(b).toFixed(2)} s (${(mb / median(b)).toFixed(0)} MB/s)`,
    );
    console.log(
      `${load()}; throughput ratio sweci/curl, median of pairs: ${median(ratios).toFixed(3)} whole process (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)}); ` +
        `${median(transferRatios).toFixed(3)} for the data files alone (sweci's start-up, listing and CSV left out; curl's whole run)`,
    );
    console.log(
      `CPU, medians: sweci ${median(cpuA).toFixed(2)} s, curl ${median(cpuB).toFixed(2)} s; the loopback server (this process) ` +
        `${median(serverA).toFixed(2)} s while sweci fetched, ${median(serverB).toFixed(2)} s while curl did`,
    );

    // The resume: stall the file that holds the half-way byte, kill sweci there, run it again.
    let before = 0;
    const half = files.find((f) => (before += f.size) >= total / 2)!;
    const into = path.join(tmp, 'resume');
    const stallAt = Math.floor(half.size / 2);
    let stalled!: () => void;
    const atStall = new Promise<void>((r) => (stalled = r));
    server.faults.stallAfter = { path: half.path, bytes: stallAt, onStall: () => stalled() };
    server.bytesSent.clear();
    const first = run(process.execPath, sweciArgs(into), env);
    await atStall;
    const part = path.join(into, '.sweci-download', 'partial', `${half.path}.part`);
    // Wait for most of what arrived to be on disk, then kill it.
    while (((await fs.stat(part).catch(() => undefined))?.size ?? 0) < stallAt - (1 << 20)) await new Promise((r) => setTimeout(r, 20));
    first.kill();
    await first.done;
    let onDisk = 0;
    for (const f of files) {
      const done = await fs.stat(path.join(into, f.path)).catch(() => undefined);
      const partial = await fs.stat(path.join(into, '.sweci-download', 'partial', `${f.path}.part`)).catch(() => undefined);
      onDisk += done?.size ?? partial?.size ?? 0;
    }
    const missing = total - onDisk;
    server.bytesSent.clear();
    await run(process.execPath, sweciArgs(into), env).done;
    let resent = 0;
    for (const f of files) resent += server.bytesSent.get(f.path) ?? 0;
    console.log(
      `resume after a kill at ${((onDisk * 100) / total).toFixed(0)}%: missing ${missing} bytes, fetched ${resent} (${(((resent - missing) * 100) / missing).toFixed(4)}% more: one probe byte a file)`,
    );
  } finally {
    await hub?.close();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
