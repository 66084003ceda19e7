// Which files are tests, for the source-lines threshold and for "does this commit have tests":
// a path inside a `test` or `tests` folder, `test_*.py`, `*_test.py` or `conftest.py`.

export function isTestPath(p: string): boolean {
  const parts = p.split('/');
  const name = parts[parts.length - 1];
  if (parts.slice(0, -1).some((d) => d === 'test' || d === 'tests')) return true;
  return /^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || name === 'conftest.py';
}

/** A Python test module pytest would collect (the "no tests found" check): a test path ending in .py. */
export function isPythonTestFile(p: string): boolean {
  return p.endsWith('.py') && isTestPath(p) && !p.endsWith('/__init__.py') && p !== '__init__.py';
}
