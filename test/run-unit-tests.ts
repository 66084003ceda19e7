// The unit tier in lanes. Most files are independent of each other and mostly wait (on pytest,
// git, a sandbox or a child CLI), so they run two at a time in the pool. Beside the pool, one at
// a time, runs the serial lane: the Docker files share the one engine and its demo image
// (docker-task removes the image to load it again, which would pull it from under another
// file's containers; docker-faults starts and stops engines of its own), and the real agent CLIs,
// which must not run beside another heavy file (each CLI keeps a core busy). The solo
// lane runs last, alone: the sandbox and language-server fuzz files measure kills and answer
// times, which a loaded machine would make flaky.
// Fixtures many files need are built once per tier (SWECI_TEST_FIXTURE_CACHE).
// At the end it names the slowest files, so a file that grows slow is seen.
// Usage: node out/test/run-unit-tests.js [node --test options, e.g. --test-name-pattern=…]
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const UNIT_DIR = path.join(__dirname, 'unit');
const TIMES_REPORTER = path.join(__dirname, 'unit-file-times.js');

interface Lane {
  name: string;
  /** Paths below out/test/unit. */
  matches: RegExp[];
  concurrency: number;
}

const SERIAL: Lane = {
  name: 'serial lane',
  matches: [/^runtime\/docker-/, /^batch\/k8s-pod\./, /^cli\/cli\.test\./, /^pytest\/run-pytest\./, /^agents\/real-agents\./],
  concurrency: 1,
};
const SOLO: Lane = {
  name: 'solo lane',
  matches: [/^runtime\/sandbox\./, /^server\/requirement-server-fuzz\./],
  concurrency: 1,
};

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
const inLane = (lane: Lane, file: string) => lane.matches.some((re) => re.test(relative(file)));

interface LaneRun {
  name: string;
  files: string[];
  concurrency: number;
  /** Stream to this process's output as it runs; otherwise print it whole when the lane ends. */
  live: boolean;
}

interface LaneResult {
  code: number;
  seconds: number;
  /** Where a lane that did not run live kept its output. */
  log?: string;
}

function runLane(lane: LaneRun, work: string, extra: string[]): Promise<LaneResult> {
  const started = Date.now();
  if (lane.files.length === 0) return Promise.resolve({ code: 0, seconds: 0 });
  const slug = lane.name.replace(/\W+/g, '-');
  const args = [
    '--test',
    `--test-concurrency=${lane.concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${TIMES_REPORTER}`,
    `--test-reporter-destination=${path.join(work, `${slug}.times`)}`,
    ...extra,
    ...lane.files,
  ];
  const log = path.join(work, `${slug}.log`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: lane.live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    // A lane that does not run live keeps its output in a file (it can be long), whole once ended.
    const out = lane.live ? undefined : createWriteStream(log);
    if (out) {
      child.stdout!.pipe(out, { end: false });
      child.stderr!.pipe(out, { end: false });
    }
    child.once('close', (code) => {
      const result = { code: code ?? 1, seconds: (Date.now() - started) / 1000, log: out ? log : undefined };
      if (out) out.end(() => resolve(result));
      else resolve(result);
    });
  });
}

/** A buffered lane's output, printed once the live lane beside it has ended. */
function printLog(title: string, log: string | undefined): Promise<void> {
  if (!log) return Promise.resolve();
  console.log(`\n── ${title} ──`);
  return new Promise((resolve) => {
    createReadStream(log)
      .on('end', () => resolve())
      .pipe(process.stdout, { end: false });
  });
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
  const extra = process.argv.slice(2);
  const files = testFiles(UNIT_DIR);
  const serial = files.filter((f) => inLane(SERIAL, f));
  const solo = files.filter((f) => inLane(SOLO, f));
  const pool = files.filter((f) => !serial.includes(f) && !solo.includes(f));
  const work = mkdtempSync(path.join(os.tmpdir(), 'sweci-unit-'));
  // Fixtures built once for the whole tier and copied to each file that asks (the demo dataset:
  // test/harness/demo-dataset-fixture.ts); removed with the rest of the work folder.
  process.env.SWECI_TEST_FIXTURE_CACHE = mkdtempSync(path.join(work, 'fixtures-'));
  const started = Date.now();
  try {
    const [a, b] = await Promise.all([
      runLane({ name: 'pool', files: pool, concurrency: 2, live: true }, work, extra),
      runLane({ name: SERIAL.name, files: serial, concurrency: SERIAL.concurrency, live: false }, work, extra),
    ]);
    await printLog(`${SERIAL.name} (ran beside the pool)`, b.log);
    console.log(`\n── ${SOLO.name} (alone) ──`);
    const c = await runLane({ name: SOLO.name, files: solo, concurrency: SOLO.concurrency, live: true }, work, extra);
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(`\nslowest files:\n${slowestFiles(work, 8).join('\n')}`);
    console.log(
      `unit tier: ${pool.length} files two at a time (${a.seconds.toFixed(0)} s), ${serial.length} in the serial lane beside them (${b.seconds.toFixed(0)} s), ${solo.length} alone (${c.seconds.toFixed(0)} s); ${minutes} min`,
    );
    return a.code || b.code || c.code;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main().then((code) => process.exit(code));
