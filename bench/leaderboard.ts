// bench:leaderboard — the leaderboard at the paper's scale: 17 model experiments of 100 tasks from
// 68 repositories, 20 iterations each, and the developers' replay (18 entries), written as real
// experiment folders (test/unit/helpers/leaderboard-experiments.ts; no agent logs in them, so the
// time cannot include parsing one). It times
//   1. `sweci leaderboard --file leaderboard.json --format json` with 10,000 bootstrap resamples,
//      as a user runs it (the bundled CLI, a whole process; goal ≤ 2 s), against the same with
//      one resample (reading and scoring the experiments, nearly nothing computed), cold (every
//      experiment's summary cache removed first: the records are read and the caches written; goal
//      ≤ 1.5 s of reading) and warm (the caches hold: goal ≤ 0.3 s), and against `sweci --help`
//      (the process's start-up), runs alternating. Reading = that run − start-up (medians);
//   2. the panel: the record written by writeLeaderboardReport (leaderboard.html, the panel's own
//      bundle dist/leaderboard.js), in headless chromium at 1440×900, from running the bundle to
//      the first frame with the table and the four figures drawn (goal ≤ 1 s), and from opening
//      the page (navigation start) to that frame.
// It prints figures, not verdicts; it exits non-zero when a step fails.
//
//   npm run build && npm run compile && npm run bench:leaderboard     (SWECI_BENCH_RUNS=5, SWECI_BENCH_CLI_ONLY=1)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium, repoRoot } from '../test/harness/code-server';
import { runToFirstFrame } from './first-frame';
import { leaderboardRecordSchema, type LeaderboardRecord } from '../src/shared/leaderboard-record';
import { writeLeaderboardReport } from '../src/core/report/leaderboard-html';
import { EXPERIMENT_CACHE_FILE } from '../src/core/scoring/experiment-summary-cache';
import { SUMMARY_CACHE_FILE } from '../src/core/scoring/run-summary-cache';
import { writeLeaderboardExperiments } from '../test/unit/helpers/leaderboard-experiments';

const RUNS = Math.max(1, Number(process.env.SWECI_BENCH_RUNS ?? 5));
const RESAMPLES = 10_000;
const CLI_GOAL_MS = 2000;
const COLD_READ_GOAL_MS = 1500;
const WARM_READ_GOAL_MS = 300;
const PANEL_GOAL_MS = 1000;
const ENTRIES = 18;
const TASKS = 100;
const REPOSITORIES = 68;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const figures = (xs: number[]) =>
  `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}; ${xs.map((x) => x.toFixed(0)).join(', ')})`;

/** Linux's clock ticks per second, for /proc's times (undefined elsewhere: no CPU figures). */
const TICKS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return fs.existsSync('/proc/self/stat') && r.status === 0 ? Number(r.stdout) : undefined;
})();

/** The user + system time of this process's waited-for children so far, in ms (/proc/self/stat's cutime and cstime). */
function childrenCpuMs(): number {
  if (!TICKS) return NaN;
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields from the 3rd on; cutime and cstime are the 16th and 17th.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS;
}

/** One whole CLI process; its wall time, its CPU time (user + system) and stdout. */
function sweci(cli: string, args: string[]): { ms: number; cpuMs: number; out: string } {
  const cpu0 = childrenCpuMs();
  const started = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`sweci ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return { ms, cpuMs: childrenCpuMs() - cpu0, out: r.stdout };
}

/** The record has the paper's shape, or the bench measured something else. */
function checkShape(record: LeaderboardRecord, resamples: number): void {
  const problems = [
    record.entries.length !== ENTRIES && `${record.entries.length} entries, not ${ENTRIES}`,
    record.tasks.length !== TASKS && `${record.tasks.length} tasks, not ${TASKS}`,
    record.bootstrap.repositories !== REPOSITORIES && `${record.bootstrap.repositories} repositories, not ${REPOSITORIES}`,
    record.bootstrap.resamples !== resamples && `${record.bootstrap.resamples} resamples, not ${resamples}`,
    record.maxEpoch !== 20 && `N = ${record.maxEpoch}, not 20`,
    record.pairs.length !== (ENTRIES * (ENTRIES - 1)) / 2 && `${record.pairs.length} pairs`,
  ].filter((p): p is string => typeof p === 'string');
  if (problems.length) throw new Error(`the leaderboard is not the paper's shape: ${problems.join('; ')}`);
}

/** Removes every experiment's summary cache under `dir`, and any run's own (earlier versions wrote them): the next read is cold. How many files of each it removed. */
function removeSummaryCaches(dir: string): { experiments: number; runs: number } {
  const removed = { experiments: 0, runs: 0 };
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || (e.name !== EXPERIMENT_CACHE_FILE && e.name !== SUMMARY_CACHE_FILE)) continue;
    fs.rmSync(path.join(e.parentPath, e.name));
    if (e.name === EXPERIMENT_CACHE_FILE) removed.experiments++;
    else removed.runs++;
  }
  return removed;
}

function timeCli(root: string, file: string): LeaderboardRecord {
  const cli = path.join(root, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const experiments = path.dirname(file);
  const args = (resamples: number) => ['leaderboard', '--file', file, '--bootstrap', String(resamples), '--format', 'json'];
  // A first run, not timed: the page cache holds the experiments, as it does for a user's second look.
  const first = sweci(cli, args(RESAMPLES));
  const record = leaderboardRecordSchema.parse(JSON.parse(first.out));
  checkShape(record, RESAMPLES);
  const full: number[] = [];
  const fullCpu: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  const coldCpu: number[] = [];
  const warmCpu: number[] = [];
  const startCpu: number[] = [];
  const start: number[] = [];
  let caches = { experiments: 0, runs: 0 };
  for (let r = 0; r < RUNS; r++) {
    const run = sweci(cli, args(RESAMPLES));
    if (run.out !== first.out) throw new Error('the leaderboard printed other bytes on a second run');
    full.push(run.ms);
    fullCpu.push(run.cpuMs);
    caches = removeSummaryCaches(experiments);
    const c = sweci(cli, args(1));
    cold.push(c.ms);
    coldCpu.push(c.cpuMs);
    const w = sweci(cli, args(1));
    // The caches are a copy of what the records say: the same bytes either way.
    if (w.out !== c.out) throw new Error('the leaderboard printed other bytes read warm than read cold');
    warm.push(w.ms);
    warmCpu.push(w.cpuMs);
    const h = sweci(cli, ['--help']);
    start.push(h.ms);
    startCpu.push(h.cpuMs);
  }
  const one = warm;
  console.log(`sweci leaderboard --format json, ${RESAMPLES} resamples: ${figures(full)}`);
  console.log(`  / goal ${CLI_GOAL_MS} ms: ${(median(full) / CLI_GOAL_MS).toFixed(2)}`);
  // What the process itself spent, which a busy machine stretches less than the wall time.
  if (TICKS) console.log(`  its CPU time (user + system, both cores): median ${median(fullCpu).toFixed(0)} ms`);
  console.log(`  with 1 resample, cold (${caches.experiments} experiments' summary caches and ${caches.runs} runs' own removed first): ${figures(cold)}`);
  console.log(`  with 1 resample, warm (the caches hold):   ${figures(warm)}`);
  console.log(`  sweci --help (process start-up):            ${figures(start)}`);
  const coldRead = median(cold) - median(start);
  const warmRead = median(warm) - median(start);
  console.log(
    `  so: start-up ${median(start).toFixed(0)} ms, reading cold ${coldRead.toFixed(0)} ms (/ goal ${COLD_READ_GOAL_MS} ms: ${(coldRead / COLD_READ_GOAL_MS).toFixed(2)}), ` +
      `warm ${warmRead.toFixed(0)} ms (/ goal ${WARM_READ_GOAL_MS} ms: ${(warmRead / WARM_READ_GOAL_MS).toFixed(2)}), ` +
      `the bootstrap's ${RESAMPLES} resamples ${(median(full) - median(one)).toFixed(0)} ms (medians)`,
  );
  // On a busy machine the wall times stretch with the load; the CPU time much less.
  if (TICKS)
    console.log(
      `  CPU time (medians): start-up ${median(startCpu).toFixed(0)} ms, reading cold ${(median(coldCpu) - median(startCpu)).toFixed(0)} ms, warm ${(median(warmCpu) - median(startCpu)).toFixed(0)} ms`,
    );
  return record;
}

/** The page the report writes, with its script swapped for a stub, and that script (the panel's bundle as the page carries it). */
function splitPage(html: string): { page: string; script: string } {
  const open = html.lastIndexOf('<script>\n');
  const close = html.lastIndexOf('</script>');
  if (open < 0 || close < open) throw new Error('leaderboard.html has no inline script');
  return {
    page: `${html.slice(0, open)}<script>window.__stub = 1;</script>${html.slice(close + '</script>'.length)}`,
    script: html.slice(open + '<script>\n'.length, close),
  };
}

async function timePanel(root: string, record: LeaderboardRecord, folder: string): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist', 'leaderboard.js'))) throw new Error('dist/leaderboard.js is missing: run npm run build first');
  const out = await writeLeaderboardReport({ record, folder, assetRoot: root });
  const { page: stubbed, script } = splitPage(fs.readFileSync(out.html, 'utf8'));
  const browser = await launchChromium();
  try {
    const bundle: number[] = [];
    const open: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await a.setContent(stubbed);
      bundle.push(await runToFirstFrame(a, script));
      await checkDrawn(a, record);
      await a.close();
      // The written page as a user opens it: navigation start to the same frame.
      const b = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await b.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () =>
          requestAnimationFrame(() => requestAnimationFrame(() => ((window as unknown as { __painted: number }).__painted = performance.now()))),
        );
      });
      await b.goto(pathToFileURL(out.html).href);
      await b.waitForFunction(() => (window as unknown as { __painted?: number }).__painted !== undefined);
      open.push(await b.evaluate(() => (window as unknown as { __painted: number }).__painted));
      await checkDrawn(b, record);
      if (run === RUNS - 1) {
        const shot = path.join(root, 'test-results', 'bench-leaderboard-panel.png');
        fs.mkdirSync(path.dirname(shot), { recursive: true });
        await b.screenshot({ path: shot, fullPage: true });
        console.log(`  screenshot: ${path.relative(root, shot)}`);
      }
      await b.close();
    }
    const size = fs.statSync(out.html).size;
    console.log(`panel (leaderboard.html, ${(size / 1024).toFixed(0)} KiB), 1440×900, bundle run → first frame with the table and figures: ${figures(bundle)}`);
    console.log(`  / goal ${PANEL_GOAL_MS} ms: ${(median(bundle) / PANEL_GOAL_MS).toFixed(2)}`);
    console.log(`  page open (navigation start) → that frame:  ${figures(open)}`);
  } finally {
    await browser.close();
  }
}

/** The table has a row per entry and each of the four figures has something on its canvas. */
async function checkDrawn(page: Page, record: LeaderboardRecord): Promise<void> {
  const drawn = await page.evaluate(() => ({
    rows: document.querySelectorAll('tr[data-label]').length,
    canvases: [...document.querySelectorAll('canvas')].map((c) => {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) return 0;
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i] !== 0) ink++;
      return ink;
    }),
  }));
  if (drawn.rows !== record.entries.length || drawn.canvases.length !== 4 || drawn.canvases.some((n) => n === 0))
    throw new Error(`the panel is not drawn: ${drawn.rows} rows, canvases ${JSON.stringify(drawn.canvases)}`);
}

async function main(): Promise<void> {
  const root = repoRoot();
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-bench-leaderboard-')));
  try {
    const started = performance.now();
    const made = writeLeaderboardExperiments(tmp);
    console.log(
      `${made.experiments.length} experiments (and one human-history run) × ${made.tasks.length} tasks × 20 iterations written in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `load ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}, ${os.cpus().length} cores; ${RUNS} runs of each`,
    );
    const record = timeCli(root, made.file);
    // SWECI_BENCH_CLI_ONLY=1: the command's figures only, no browser.
    if (process.env.SWECI_BENCH_CLI_ONLY !== '1') await timePanel(root, record, path.join(tmp, 'report'));
    console.log(
      `load after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
