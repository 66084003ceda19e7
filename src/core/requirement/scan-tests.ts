// Test node ids found in Python source by a line scan (no Python needed): top-level
// `def test*` and `def test*` methods of top-level classes (pytest's `Test*` classes and
// unittest.TestCase subclasses alike, so any class counts). Parametrized ids are matched by
// their base id elsewhere.

export function isTestFile(name: string): boolean {
  return /^test_.*\.py$/.test(name) || /_test\.py$/.test(name);
}

export function testIdsInSource(relPath: string, source: string): string[] {
  const ids: string[] = [];
  let cls: string | undefined;
  for (const line of source.split(/\r\n|\r|\n/)) {
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = line.length - trimmed.length;
    if (indent === 0) {
      const c = /^class\s+([A-Za-z_]\w*)/.exec(trimmed);
      if (c) {
        cls = c[1];
        continue;
      }
      // Decorators keep the class open only if they precede a method; at column 0 they end it.
      cls = undefined;
      const f = /^(?:async\s+)?def\s+(test\w*)/.exec(trimmed);
      if (f) ids.push(`${relPath}::${f[1]}`);
      continue;
    }
    const m = cls ? /^(?:async\s+)?def\s+(test\w*)/.exec(trimmed) : null;
    if (m && cls) ids.push(`${relPath}::${cls}::${m[1]}`);
  }
  return ids;
}
