// A small Python project's history built by code for the env, filter and pack stages, and a wheel
// folder beside it. Its spans (thresholds off):
//   A  1→2  declares nowhere-dist, which no index has: the build fails.
//   B  3→5  declares nothing its tests need, but they import fancymod (the wheel fancy_dist
//           provides it): repaired. The oracle adds six functions and their tests: gap 6.
//   C  6→7  a docs-only dependency change (same environment as B): one new test, gap 1.
//   D  8→9  same environment again; the oracle's conftest imports what the base lacks: the
//           base's run cannot launch.
//   E 10→11 same environment again, but the oracle's new test imports othermod (the wheel
//           other_dist provides it): the filter's oracle run in the shared image misses it, so
//           the environment stage collects and repairs again. One new function: gap 1.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { History } from './history-fixture';
import { writeWheel } from './wheel-fixture';

const pyproject = (deps: string[], docs: string): string =>
  `[project]\nname = "calc"\nversion = "0.1"\nrequires-python = ">=3.8"\ndependencies = [${deps.map((d) => JSON.stringify(d)).join(', ')}]\n\n[project.optional-dependencies]\ndocs = [${JSON.stringify(docs)}]\n`;

const NEW_FUNCTIONS = ['sub', 'neg', 'sq', 'cube', 'half', 'twice'];
const body: Record<string, string> = {
  sub: 'def sub(a, b):\n    return a - b\n',
  neg: 'def neg(a):\n    return -a\n',
  sq: 'def sq(a):\n    return a * a\n',
  cube: 'def cube(a):\n    return a * a * a\n',
  half: 'def half(a):\n    return a / 2\n',
  twice: 'def twice(a):\n    return 2 * a\n',
};
const call: Record<string, string> = {
  sub: 'calc.sub(5, 3) == 2',
  neg: 'calc.neg(2) == -2',
  sq: 'calc.sq(3) == 9',
  cube: 'calc.cube(2) == 8',
  half: 'calc.half(4) == 2',
  twice: 'calc.twice(4) == 8',
};

export interface CurateFixture {
  repo: string;
  wheels: string;
  /** Each span's base and oracle sha. */
  spans: Record<'A' | 'B' | 'C' | 'D' | 'E', { base: string; oracle: string }>;
}

/** Writes the repository at `<dir>/<name>` (the name makes the image tags unique) and the wheels at `<dir>/wheels`. */
export async function writeCurateFixture(dir: string, name: string): Promise<CurateFixture> {
  const h = new History();
  const basics = 'def add(a, b):\n    return a + b\n';
  h.commit('main', {
    'pyproject.toml': pyproject(['nowhere-dist>=1'], 'sphinx'),
    'src/calc/__init__.py': basics,
    'tests/test_basic.py': 'import calc\n\n\ndef test_add():\n    assert calc.add(1, 2) == 3\n',
  }); // 1
  h.commit('main', { 'src/calc/__init__.py': `${basics}\n\ndef mul(a, b):\n    return a * b\n` }); // 2
  const withMul = `${basics}\n\ndef mul(a, b):\n    return a * b\n`;
  h.commit('main', { 'pyproject.toml': pyproject([], 'sphinx') }); // 3
  h.commit('main', {
    'src/calc/__init__.py': `${withMul}\n\n${NEW_FUNCTIONS.slice(0, 3)
      .map((f) => body[f])
      .join('\n\n')}`,
    'tests/test_more.py': `import calc\n${NEW_FUNCTIONS.map((f) => `\n\ndef test_${f}():\n    assert ${call[f]}\n`).join('')}`,
    'tests/test_fancy.py': 'import fancymod\n\n\ndef test_fancy():\n    assert fancymod.VALUE == 42\n',
  }); // 4
  const all = `${withMul}\n\n${NEW_FUNCTIONS.map((f) => body[f]).join('\n\n')}`;
  h.commit('main', { 'src/calc/__init__.py': all }); // 5
  h.commit('main', { 'pyproject.toml': pyproject([], 'sphinx>=5') }); // 6
  const withInc = `${all}\n\ndef inc(a):\n    return a + 1\n`;
  h.commit('main', { 'src/calc/__init__.py': withInc, 'tests/test_inc.py': 'import calc\n\n\ndef test_inc():\n    assert calc.inc(1) == 2\n' }); // 7
  h.commit('main', { 'pyproject.toml': pyproject([], 'sphinx') }); // 8
  h.commit('main', {
    'src/calc/__init__.py': `${withInc}\n\nnewthing = 1\n`,
    'tests/conftest.py': 'from calc import newthing  # noqa: F401\n',
  }); // 9
  h.commit('main', { 'pyproject.toml': pyproject([], 'sphinx>=6') }); // 10
  h.commit('main', {
    'src/calc/__init__.py': `${withInc}\n\nnewthing = 1\n\n\ndef dec(a):\n    return a - 1\n`,
    'tests/test_other.py': 'import calc\nimport othermod\n\n\ndef test_dec():\n    assert calc.dec(othermod.VALUE) == 6\n',
  }); // 11
  const repo = path.join(dir, name);
  const sha = await h.write(repo);
  const wheels = path.join(dir, 'wheels');
  await fs.mkdir(wheels, { recursive: true });
  await writeWheel(wheels, { name: 'fancy_dist', version: '1.0', files: { 'fancymod/__init__.py': 'VALUE = 42\n' } });
  await writeWheel(wheels, { name: 'other_dist', version: '1.0', files: { 'othermod/__init__.py': 'VALUE = 7\n' } });
  const s = (n: number): string => sha.get(n) as string;
  return {
    repo,
    wheels,
    spans: {
      A: { base: s(1), oracle: s(2) },
      B: { base: s(3), oracle: s(5) },
      C: { base: s(6), oracle: s(7) },
      D: { base: s(8), oracle: s(9) },
      E: { base: s(10), oracle: s(11) },
    },
  };
}
