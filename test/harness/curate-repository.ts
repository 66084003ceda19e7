// A small repository for the editor's curation (integration and e2e): two dependency spans on
// main, the first over the line thresholds with a test only its oracle passes, the second too
// small (dropped with its reason). The base collects the oracle's tests (pytest runs on it).
import { History, lines } from '../unit/curate/history-fixture';

export interface CurateRepository {
  dir: string;
  /** The kept span: base → oracle (full shas). */
  kept: { base: string; oracle: string };
  /** The dropped span's oracle. */
  droppedOracle: string;
}

const pyproject = (deps: string[]): string => `[project]\nname = "toy"\nversion = "0.1"\ndependencies = [${deps.map((d) => `"${d}"`).join(', ')}]\n`;

export async function curateRepository(dir: string): Promise<CurateRepository> {
  const h = new History();
  const base = h.commit('main', {
    'pyproject.toml': pyproject(['requests>=2']),
    // The root conftest puts the repository on sys.path (pytest's rootdir rule), so tests import pkg.
    'conftest.py': '',
    'pkg/__init__.py': '',
    'pkg/feature.py': 'def answer():\n    return 0\n',
    'tests/test_toy.py': 'def test_old():\n    assert True\n',
  });
  h.commit('main', { 'pkg/big.py': lines(1200, 'a') });
  const oracle = h.commit('main', {
    'pkg/feature.py': 'def answer():\n    return 42\n',
    'tests/test_feature.py': 'from pkg.feature import answer\n\n\ndef test_new():\n    assert answer() == 42\n',
  });
  h.commit('main', { 'pyproject.toml': pyproject(['requests>=2', 'click']) });
  const droppedOracle = h.commit('main', { 'pkg/small.py': lines(3, 'b') });
  const shas = await h.write(dir);
  return { dir, kept: { base: shas.get(base)!, oracle: shas.get(oracle)! }, droppedOracle: shas.get(droppedOracle)! };
}
