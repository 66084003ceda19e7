// Builds small real Python projects (src/<pkg>, tests/) in the temp folder for real pytest runs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const PYTHON = process.env.SWECI_TEST_PYTHON ?? 'python3';

export function makeProject(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-pytest-'));
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return root;
}

export function removeProject(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}

/** Every path under root, relative, posix. */
export function listTree(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort();
}

export const CALC_SRC = {
  'src/calc/__init__.py': 'from .ops import add, sub\n',
  'src/calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return b - a  # bug\n',
};

export const MIXED_TESTS = {
  'tests/test_ops.py': [
    'import pytest',
    'from calc import add, sub',
    '',
    '',
    'def test_add():',
    '    assert add(2, 3) == 5',
    '',
    '',
    'def test_sub():',
    '    assert sub(5, 3) == 2',
    '',
    '',
    'class TestMore:',
    '    @pytest.mark.parametrize("a,b", [(1, 2), (3, 4)], ids=["one/two", "weird id [1]::x"])',
    '    def test_param(self, a, b):',
    '        assert add(a, b) == a + b',
    '',
    '    def test_skip(self):',
    '        pytest.skip("not today")',
    '',
    '',
    '@pytest.mark.xfail(reason="known")',
    'def test_xfail():',
    '    assert sub(1, 1) == 1',
    '',
  ].join('\n'),
  'tests/test_fixtures.py': [
    'import pytest',
    '',
    '',
    '@pytest.fixture',
    'def broken_setup():',
    '    raise RuntimeError("setup is broken")',
    '',
    '',
    '@pytest.fixture',
    'def broken_teardown():',
    '    yield 1',
    '    raise RuntimeError("teardown is broken")',
    '',
    '',
    'def test_setup_error(broken_setup):',
    '    pass',
    '',
    '',
    'def test_teardown_error(broken_teardown):',
    '    assert broken_teardown == 1',
    '',
  ].join('\n'),
};
