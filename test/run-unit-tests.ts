// The unit tier in lanes (test/unit-lanes.ts says which file runs where and why): the pool three
// files at a time and, beside it, the serial lane (the Docker files) one at a time, which takes
// the pool's files once its own are done (so four run until the pool is empty); then the solo
// lane alone. Each file runs in a node process of its own, taken in the plan's order (longest
// first), and its output is printed whole when it ends, so two files never interleave. The file
// is run directly, not under `node --test`, which would start a second node process for it: on
// a machine where a process costs much (a paravirtualized VM, where page faults go through the
// hypervisor), that was 232 node starts a tier, about 80 CPU-s.
// Fixtures many files need are built once per tier (SWECI_TEST_FIXTURE_CACHE).
// At the end it names the slowest files, so a file that grows slow is seen.
// Usage: node out/test/run-unit-tests.js [node:test options, e.g. --test-name-pattern=…]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { laneSeconds, planLanes, usesDocker, type LanePlan } from './unit-lanes';
import { useTestPython } from './harness/test-python';
import { FAILURE_DIGEST_MARK, failingTests } from './harness/failure-digest';

const UNIT_DIR = path.join(__dirname, 'unit');
const TIMES_REPORTER = path.join(__dirname, 'unit-file-times.js');

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(full));
    else if (entry.name.endsWith('.test.js')) out.push(full);
  }
  return out.sort();
}

const relative = (file: string) => path.relative(UNIT_DIR, file).split(path.sep).join('/');

interface LaneResult {
  failed: string[];
  seconds: number;
}

let stopping = false;
const running = new Set<ChildProcess>();
/** Each failed file's failing tests and their messages, for the digest at the tier's end. */
const digests = new Map<string, string[]>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // Stopped, the tier passes the signal to the files running (a terminal's ^C reaches them
  // anyway), waits for them to end and starts no other.
  process.on(signal, () => {
    stopping = true;
    for (const child of running) child.kill(signal);
  });
}

/** One file in a node process of its own; its output, whole, once it has ended. */
function runFile(file: string, index: number, work: string, extra: string[]): Promise<{ code: number; output: string }> {
  const args = [
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${TIMES_REPORTER}`,
    `--test-reporter-destination=${path.join(work, `${index}.times`)}`,
    ...extra,
    path.join(UNIT_DIR, file),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.once('error', (err) => chunks.push(Buffer.from(`${err.message}\n`)));
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() });
    });
  });
}

/**
 * Runs a lane's files in its order, `concurrency` at a time; `next` numbers the files across lanes.
 * With `spill` (another lane's queue, shared), the lane takes that lane's files once its own are done.
 */
async function runLane(lane: LanePlan, queue: string[], next: { index: number }, work: string, extra: string[], spill?: string[]): Promise<LaneResult> {
  const started = Date.now();
  const failed: string[] = [];
  const take = () => (stopping ? undefined : (queue.shift() ?? spill?.shift()));
  const worker = async () => {
    for (let file = take(); file !== undefined; file = take()) {
      const t0 = Date.now();
      const { code, output } = await runFile(file, next.index++, work, extra);
      const took = ((Date.now() - t0) / 1000).toFixed(0);
      process.stdout.write(`\n── ${file} (${lane.name}, ${took} s${code ? ', FAILED' : ''}) ──\n${output}`);
      if (code) {
        failed.push(file);
        digests.set(file, failingTests(output) ?? output.trimEnd().split('\n').slice(-15));
      }
    }
  };
  await Promise.all(Array.from({ length: lane.concurrency }, worker));
  // A file a signal kept from starting has not passed.
  failed.push(...queue);
  return { failed, seconds: (Date.now() - started) / 1000 };
}

function slowestFiles(work: string, count: number): string[] {
  const perFile = new Map<string, number>();
  for (const name of readdirSync(work).filter((n) => n.endsWith('.times'))) {
    for (const line of readFileSync(path.join(work, name), 'utf8').split('\n').filter(Boolean)) {
      const { file, ms } = JSON.parse(line) as { file: string; ms: number };
      perFile.set(file, (perFile.get(file) ?? 0) + ms);
    }
  }
  return [...perFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([file, ms]) => `  ${(ms / 1000).toFixed(0).padStart(4)} s  ${relative(file)}`);
}

async function main(): Promise<number> {
  // The files' local pytest runs use the suite's Python (test/harness/test-python.ts).
  useTestPython();
  const extra = process.argv.slice(2);
  const files = testFiles(UNIT_DIR);
  const testRoot = path.dirname(UNIT_DIR);
  const [pool, serial, solo] = planLanes(files.map(relative), (file) => usesDocker(path.join(UNIT_DIR, file), testRoot)) as [LanePlan, LanePlan, LanePlan];
  // Which lanes run (test/run-all-tests.ts runs the solo lane apart, once nothing else runs).
  const wanted = new Set((process.env.SWECI_UNIT_LANES ?? 'pool,serial,solo').split(','));
  const work = mkdtempSync(path.join(os.tmpdir(), 'sweci-unit-'));
  // Fixtures built once for the whole tier and copied to each file that asks (the demo dataset:
  // test/harness/demo-dataset-fixture.ts); removed with the rest of the work folder.
  process.env.SWECI_TEST_FIXTURE_CACHE = mkdtempSync(path.join(work, 'fixtures-'));
  const expected = (lane: LanePlan) => `${lane.files.length} files, ~${laneSeconds(lane).toFixed(0)} s expected`;
  console.log(`unit tier plan: pool ${expected(pool)}; serial lane ${expected(serial)}; solo lane ${expected(solo)}`);
  const started = Date.now();
  const next = { index: 0 };
  try {
    const idle: LaneResult = { failed: [], seconds: 0 };
    const poolQueue = wanted.has('pool') ? [...pool.files] : [];
    const [a, b] = await Promise.all([
      runLane(pool, poolQueue, next, work, extra),
      wanted.has('serial') ? runLane(serial, [...serial.files], next, work, extra, poolQueue) : idle,
    ]);
    let c = idle;
    if (wanted.has('solo')) {
      console.log(`\n── ${solo.name} (alone) ──`);
      c = stopping ? { failed: solo.files, seconds: 0 } : await runLane(solo, [...solo.files], next, work, extra);
    }
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(`\nslowest files:\n${slowestFiles(work, 8).join('\n')}`);
    const parts = [
      ...(wanted.has('pool') ? [`${pool.files.length} files ${pool.concurrency} at a time (${a.seconds.toFixed(0)} s)`] : []),
      ...(wanted.has('serial') ? [`${serial.files.length} in the serial lane beside them, then the pool's rest (${b.seconds.toFixed(0)} s)`] : []),
      ...(wanted.has('solo') ? [`${solo.files.length} alone (${c.seconds.toFixed(0)} s)`] : []),
    ];
    console.log(`unit tier${wanted.size < 3 ? ` (lanes: ${[...wanted].join(', ')})` : ''}: ${parts.join(', ')}; ${minutes} min`);
    const failed = [...a.failed, ...b.failed, ...c.failed];
    if (stopping) failed.push('(the tier was stopped by a signal)');
    if (failed.length > 0) {
      console.log(`failed or not run:\n${failed.map((f) => `  ${f}`).join('\n')}`);
      console.log(FAILURE_DIGEST_MARK);
      for (const f of failed) console.log([`${f}:`, ...(digests.get(f) ?? ['  (not run)'])].join('\n'));
    }
    return failed.length > 0 ? 1 : 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main().then((code) => process.exit(code));
