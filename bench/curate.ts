// Benchmark: what mining a history costs (sweci curate's Step 2) against reading that history
// once with `git log --first-parent --numstat`. The repository is built by code: 1,500 commits
// on the first-parent chain (with merged side branches), 100 of them changing the dependencies
// (pyproject.toml, setup.cfg, requirement files with an include), the rest changing source and
// tests. Both sides run in this process, one after the other (A B A B …), so the ratio is taken
// pair by pair and a machine whose speed drifts moves both alike. Quote the median. The issue's
// bound: mining ≤ 3× the git log pass. Beside the wall-clock ratio, the CPU ratio: each side's
// processor seconds (this process's plus those of the git processes it waited for, as Linux
// accounts them), summed over the pairs. On a loaded shared machine the wall ratio of a pair swings
// several-fold from one pair to the next; the CPU ratio says what the work costs, and the load
// average printed with the figures says how much to trust the wall ratio.
//
//   npm run compile && npm run bench:curate        (SWECI_BENCH_RUNS pairs, default 7)
//
// SWECI_BENCH_REPO=<new folder> builds the repository there and keeps it, e.g. to time the whole
// CLI from outside: farm-bench --vs 'git -C <dir> log --first-parent --numstat' -- node dist/cli.js curate <dir> --dry-run
//
// Then the shared environment (needs the Docker engine and the set-up's base image; SWECI_BENCH_ENV=0
// skips it): the curation tests' repository (test/unit/curate/curate-fixture.ts) through every stage
// with `sweci curate`, where three candidates have the environment of a fourth. Each candidate
// that shares the image a first one verified: its environment stage (finding the image by its
// tag) plus its filter stage, against its filter stage alone, from the stage times
// curation.jsonl records. The issue's bound: no rebuild, ≤ 1.1×. One of the three misses a module
// in the shared image and goes back to the environment stage (printed apart, not in the ratio).
// Printed with the funnel and each stage's time.
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mineSpans } from '../src/core/curate/mine';
import { readRecords } from '../src/core/curate/curation-store';
import { History, lines } from '../test/unit/curate/history-fixture';
import { writeCurateFixture } from '../test/unit/curate/curate-fixture';
import { CURATE_BASE_IMAGE } from '../scripts/demo-image';

const RUNS = Number(process.env.SWECI_BENCH_RUNS ?? 7);
const COMMITS = 1500;
const DEPENDENCY_CHANGES = 100;

/** Processor seconds of this process and of its children it has waited for (Linux; NaN elsewhere). */
function cpuSeconds(): number {
  try {
    // /proc/self/stat: after the command's ")", utime stime cutime cstime are fields 12 to 15, in clock ticks (100 a second).
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = fields.slice(11, 15).reduce((n, f) => n + Number(f), 0);
    return ticks / 100;
  } catch {
    return NaN;
  }
}

const load = (): string =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The history: every 15th commit changes a dependency, in turn in each file kind. */
function history(): History {
  const h = new History();
  const deps: string[] = ['requests>=2'];
  h.commit('main', {
    'pyproject.toml': `[project]\nname = "bench"\ndependencies = ["requests>=2"]\n`,
    'setup.cfg': '[options]\ninstall_requires =\n    six\n',
    'requirements.txt': '-r requirements/base.txt\nclick\n',
    'requirements/base.txt': 'attrs\n',
    'tests/test_core.py': 'def test_core():\n    pass\n',
  });
  let made = 1;
  let changes = 0;
  const every = Math.floor((COMMITS - 1) / DEPENDENCY_CHANGES);
  while (made < COMMITS) {
    if (made % every === 0 && changes < DEPENDENCY_CHANGES) {
      changes++;
      const kind = changes % 3;
      if (kind === 0) {
        deps.push(`pkg${changes}>=1`);
        h.commit('main', { 'pyproject.toml': `[project]\nname = "bench"\ndependencies = ${JSON.stringify(deps)}\n` });
      } else if (kind === 1) h.commit('main', { 'setup.cfg': `[options]\ninstall_requires =\n    six\n    cfg${changes}\n` });
      else h.commit('main', { 'requirements/base.txt': `attrs\nbase${changes}\n` });
    } else if (made % 50 === 25) {
      // A side branch of two commits, merged: the first-parent chain sees the merge only.
      const side = `side${made}`;
      h.commit(side, { [`src/side${made}.py`]: lines(20, side) }, { from: 'main' });
      h.commit(side, { [`tests/test_side${made}.py`]: lines(10, side) });
      h.commit('main', { [`src/side${made}.py`]: lines(20, side), [`tests/test_side${made}.py`]: lines(10, side) }, { mergeFrom: side });
    } else {
      h.commit('main', { [`src/mod${made % 40}.py`]: lines(30 + (made % 7), `m${made}`), [`tests/test_mod${made % 40}.py`]: lines(8, `t${made}`) });
    }
    made++;
  }
  return h;
}

/** `git log --first-parent --numstat` read to its end, in seconds. */
function gitLog(dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('git', ['log', '--first-parent', '--numstat', 'main'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', () => undefined);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`git log exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-curate-'));
  try {
    const dir = process.env.SWECI_BENCH_REPO ? path.resolve(process.env.SWECI_BENCH_REPO) : path.join(tmp, 'repo');
    const built = performance.now();
    await history().write(dir);
    console.log(`history built in ${((performance.now() - built) / 1000).toFixed(1)} s`);
    const options = { lockfiles: false, minChangedLines: 1000, minSourceLines: 500 };
    const first = await mineSpans(dir, 'main', options);
    const passed = first.candidates.filter((c) => !c.dropped).length;
    console.log(
      `funnel: ${first.commits} first-parent commits, ${first.dependencyChanges} dependency changes → ${first.candidates.length} spans → ${passed} over the line thresholds`,
    );
    console.log(`${RUNS} pairs; ${load()}`);
    const ratios: number[] = [];
    const mined: number[] = [];
    const logged: number[] = [];
    let minedCpu = 0;
    let loggedCpu = 0;
    for (let i = 0; i < RUNS; i++) {
      const c0 = cpuSeconds();
      const t0 = performance.now();
      await mineSpans(dir, 'main', options);
      const a = (performance.now() - t0) / 1000;
      const c1 = cpuSeconds();
      const b = await gitLog(dir);
      minedCpu += c1 - c0;
      loggedCpu += cpuSeconds() - c1;
      mined.push(a);
      logged.push(b);
      ratios.push(a / b);
    }
    console.log(
      `mine (stage time)             median ${median(mined).toFixed(3)} s  (min ${Math.min(...mined).toFixed(3)}, max ${Math.max(...mined).toFixed(3)})`,
    );
    console.log(`git log --first-parent --numstat  median ${median(logged).toFixed(3)} s`);
    console.log(
      `ratio mine / git log          median ${median(ratios).toFixed(2)}×  (min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}; bound 3×)`,
    );
    console.log(
      `CPU mine ${((minedCpu * 1000) / RUNS).toFixed(0)} ms, git log ${((loggedCpu * 1000) / RUNS).toFixed(0)} ms a pass (git processes included); ` +
        `CPU ratio ${(minedCpu / loggedCpu).toFixed(2)}×; ${load()}`,
    );
    if (process.env.SWECI_BENCH_ENV !== '0') await sharedEnvironment(tmp);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** Every stage on the curation tests' repository; the shared-environment candidates' ratio. */
async function sharedEnvironment(tmp: string): Promise<void> {
  const name = `bench-curate-${process.pid}`;
  const fx = await writeCurateFixture(path.join(tmp, 'shared'), name);
  const out = path.join(tmp, 'shared', 'out');
  const cli = path.resolve(__dirname, '../src/cli/main.js');
  const args = ['--min-changed-lines', '0', '--min-source-lines', '0', '--min-gap', '1', '--base-image', CURATE_BASE_IMAGE, '--find-links', fx.wheels];
  const stageSeconds: Record<string, number> = {};
  let log = '';
  try {
    // env and filter twice: the second time for the candidate the filter sent back.
    for (const stage of ['mine', 'env', 'filter', 'env', 'filter', 'pack']) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'curate', fx.repo, '--out', out, '--stage', stage, ...args], { encoding: 'utf8' });
      stageSeconds[stage] = (stageSeconds[stage] ?? 0) + (performance.now() - t0) / 1000;
      if (r.status !== 0) throw new Error(`sweci curate --stage ${stage} exited with ${r.status}: ${r.stderr}`);
      log += r.stderr;
      if (stage === 'pack') process.stdout.write(spawnSync(process.execPath, [cli, 'curate', '--status', out], { encoding: 'utf8' }).stdout);
    }
  } finally {
    spawnSync('sh', ['-c', `docker images --format '{{.Repository}}:{{.Tag}}' 'sweci-curate/${name}' | xargs -r docker rmi -f`], { stdio: 'ignore' });
  }
  console.log(
    `stage times (whole command): ${Object.entries(stageSeconds)
      .map(([s, t]) => `${s} ${t.toFixed(1)} s`)
      .join(', ')}`,
  );
  const builds = log.match(/^building sweci-curate/gm)?.length ?? 0;
  const records = await readRecords(out);
  const first = new Map<string, string>();
  const ratios: number[] = [];
  for (const r of records) {
    if (!r.envKey || r.stages.env?.outcome !== 'passed') continue;
    if (!first.has(r.envKey)) {
      first.set(r.envKey, r.id);
      continue;
    }
    if (!r.stages.env.reason?.startsWith('shared:')) {
      console.log(`sent back ${r.id}: its oracle misses a module in the shared image; env ${r.stages.env.seconds.toFixed(2)} s with its repair`);
      continue;
    }
    const env = r.stages.env.seconds;
    const filter = r.stages.filter?.seconds;
    if (filter === undefined) continue;
    ratios.push((env + filter) / filter);
    console.log(
      `shared environment ${r.id}: env ${env.toFixed(2)} s (image of ${first.get(r.envKey)}), filter ${filter.toFixed(2)} s → (env + filter) / filter ${((env + filter) / filter).toFixed(2)}×`,
    );
  }
  console.log(`images built: ${builds}, for ${records.filter((r) => r.image).length} candidates with an environment`);
  if (ratios.length > 0)
    console.log(`ratio second candidate of an environment / its filter alone  median ${median(ratios).toFixed(2)}×  (bound 1.1×, no rebuild)`);
}

void main();
