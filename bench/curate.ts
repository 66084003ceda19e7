// Benchmark: what mining a history costs (sweci curate's Step 2) against reading that history
// once with `git log --first-parent --numstat`. The repository is built by code: 1,500 commits
// on the first-parent chain (with merged side branches), 100 of them changing the dependencies
// (pyproject.toml, setup.cfg, requirement files with an include), the rest changing source and
// tests. Both sides run in this process, one after the other (A B A B …), so the ratio is taken
// pair by pair and a machine whose speed drifts moves both alike. Quote the median. The issue's
// bound: mining ≤ 3× the git log pass.
//
//   npm run compile && npm run bench:curate        (SWECI_BENCH_RUNS pairs, default 7)
//
// SWECI_BENCH_REPO=<new folder> builds the repository there and keeps it, e.g. to time the whole
// CLI from outside: farm-bench --vs 'git -C <dir> log --first-parent --numstat' -- node dist/cli.js curate <dir> --dry-run
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mineSpans } from '../src/core/curate/mine';
import { History, lines } from '../test/unit/curate/history-fixture';

const RUNS = Number(process.env.SWECI_BENCH_RUNS ?? 7);
const COMMITS = 1500;
const DEPENDENCY_CHANGES = 100;

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
    const ratios: number[] = [];
    const mined: number[] = [];
    const logged: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await mineSpans(dir, 'main', options);
      const a = (performance.now() - t0) / 1000;
      const b = await gitLog(dir);
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
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

void main();
