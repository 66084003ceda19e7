// `npm test`: lint, the format check and the three tiers, overlapped where they share nothing,
// so the whole suite takes about as long as its longest chain rather than the sum of its parts.
// Each tier alone uses about half of a 2-core machine (it waits on Docker, Slurm, VS Code):
//   lint, format check ─┐
//   unit (pool, serial) ├─ then the unit tier's solo lane, alone (its files time kills and
//   integration → e2e  ─┘  answers, or exhaust the machine on purpose)
// integration and e2e run one after the other (each drives a VS Code of its own and their
// scenarios check what the workbench shows). Every job runs to its end even when another failed,
// so one run names every failure. A job's output goes to test-results/run-all/<job>.log as it
// comes and is printed whole when the job ends, so two jobs never interleave.
// SWECI_TEST_SERIAL=1 runs the jobs one after another, in the order above (the old `npm test`).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { useTestPython } from './harness/test-python';
import { digestOfLog } from './harness/failure-digest';

interface Job {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Jobs that must have ended first. */
  after: string[];
}

// out/test → the repository.
const ROOT = path.resolve(__dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const node = (script: string): string[] => [process.execPath, path.join(__dirname, script)];

export const JOBS: readonly Job[] = [
  { name: 'lint', command: [NPM, 'run', '--silent', 'lint'], after: [] },
  { name: 'format', command: [NPM, 'run', '--silent', 'format:check'], after: ['lint'] },
  { name: 'unit', command: node('run-unit-tests.js'), env: { SWECI_UNIT_LANES: 'pool,serial' }, after: [] },
  { name: 'integration', command: node('integration/run.js'), after: [] },
  { name: 'e2e', command: node('e2e/run.js'), after: ['integration'] },
  { name: 'unit (solo lane)', command: node('run-unit-tests.js'), env: { SWECI_UNIT_LANES: 'solo' }, after: ['lint', 'format', 'unit', 'integration', 'e2e'] },
];

/** Jobs as they may start: with `serial`, each after the one before it. */
export function schedule(jobs: readonly Job[], serial: boolean): Job[] {
  return serial ? jobs.map((job, i) => ({ ...job, after: i === 0 ? [] : [jobs[i - 1].name] })) : [...jobs];
}

const LOG_DIR = path.join(ROOT, 'test-results', 'run-all');
const running = new Set<ChildProcess>();
let stopping = false;

const minutes = (ms: number): string => `${(ms / 60_000).toFixed(1)} min`;
const stamp = (t0: number): string => `[${minutes(Date.now() - t0).padStart(8)}]`;

const logOf = (job: Job): string => path.join(LOG_DIR, `${job.name.replace(/\W+/g, '-').replace(/-$/, '')}.log`);

function runJob(job: Job, t0: number): Promise<{ code: number; ms: number }> {
  const log = logOf(job);
  const out = createWriteStream(log);
  const started = Date.now();
  console.log(`${stamp(t0)} ${job.name}: started (output in ${path.relative(ROOT, log)})`);
  return new Promise((resolve) => {
    const child = spawn(job.command[0], job.command.slice(1), { cwd: ROOT, env: { ...process.env, ...job.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.once('error', (err) => out.write(`${err.message}\n`));
    child.once('close', (code, signal) => {
      running.delete(child);
      out.end(() => {
        const ms = Date.now() - started;
        const result = code ?? (signal ? 1 : 0);
        process.stdout.write(`\n══ ${job.name} (${minutes(ms)}${result ? ', FAILED' : ''}) ══\n${readFileSync(log, 'utf8')}\n`);
        console.log(`${stamp(t0)} ${job.name}: ${result ? 'FAILED' : 'passed'} in ${minutes(ms)}`);
        resolve({ code: result, ms });
      });
    });
  });
}

async function main(): Promise<number> {
  // Every job's local pytest runs use the suite's Python (test/harness/test-python.ts).
  useTestPython();
  // Stopped, it passes the signal to the jobs running, waits for them and starts no other.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const child of running) child.kill(signal);
    });
  }
  const jobs = schedule(JOBS, process.env.SWECI_TEST_SERIAL === '1');
  mkdirSync(LOG_DIR, { recursive: true });
  const t0 = Date.now();
  const ended = new Map<string, Promise<{ code: number; ms: number }>>();
  const results = new Map<string, { code: number; ms: number }>();
  const start = (job: Job): Promise<{ code: number; ms: number }> => {
    let p = ended.get(job.name);
    if (!p) {
      p = (async () => {
        for (const name of job.after) await start(jobs.find((j) => j.name === name)!);
        const r = stopping ? { code: 1, ms: 0 } : await runJob(job, t0);
        results.set(job.name, r);
        return r;
      })();
      ended.set(job.name, p);
    }
    return p;
  };
  await Promise.all(jobs.map(start));
  console.log(`\nnpm test: ${minutes(Date.now() - t0)}`);
  for (const job of jobs) {
    const r = results.get(job.name)!;
    console.log(`  ${r.code ? '✗' : '✓'} ${job.name.padEnd(18)} ${minutes(r.ms)}`);
  }
  const failed = jobs.filter((j) => results.get(j.name)!.code !== 0);
  // Last, so that the end of the output (all CI may show) says what failed and why.
  for (const job of failed) {
    const file = logOf(job);
    const log = existsSync(file) ? readFileSync(file, 'utf8') : '(no log: the job never started)';
    console.log(`\n✗ ${job.name}: what failed (whole output in ${path.relative(ROOT, file)})\n${digestOfLog(log).join('\n')}`);
  }
  if (stopping) console.log('(stopped by a signal)');
  return failed.length > 0 || stopping ? 1 : 0;
}

if (require.main === module) void main().then((code) => process.exit(code));
