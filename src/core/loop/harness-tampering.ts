// Changes that alter how pytest collects or reports the tests, made outside tests/ (which is
// restored before every run): a conftest.py, pytest's own configuration, and the files Python
// runs at start-up. The code under test runs inside pytest, so such a change can turn failures
// into passes; it cannot be prevented without changing what the reference runs, so it is
// flagged on every iteration whose code differs from the base in those files.

/** Files whose pytest section (or whole content) configures pytest, by top-level name. */
const PYTEST_SECTIONS: Record<string, RegExp | 'whole'> = {
  'pytest.ini': 'whole',
  'tox.ini': /^\[pytest\]\s*$/,
  'setup.cfg': /^\[tool:pytest\]\s*$/,
  'pyproject.toml': /^\[tool\.pytest(\.ini_options)?\]\s*$/,
};

const STARTUP_FILES = new Set(['sitecustomize.py', 'usercustomize.py']);

/** Whether a changed path may touch the harness; config files need their section compared. */
function harnessKind(rel: string): 'file' | 'section' | undefined {
  const parts = rel.split('/');
  const name = parts[parts.length - 1];
  if (parts[0] === 'tests') return undefined;
  if (name === 'conftest.py' || STARTUP_FILES.has(name) || name.endsWith('.pth')) return 'file';
  if (parts.length === 1 && name in PYTEST_SECTIONS) return PYTEST_SECTIONS[name] === 'whole' ? 'file' : 'section';
  return undefined;
}

/** The pytest section of a config file's text (header to the next section), '' when absent. */
function pytestSection(name: string, text: string): string {
  const header = PYTEST_SECTIONS[name];
  if (header === undefined) return '';
  if (header === 'whole') return text;
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => header.test(l.trim()));
  if (start < 0) return '';
  const out: string[] = [];
  for (let i = start + 1; i < lines.length && !/^\s*\[/.test(lines[i]); i++) out.push(lines[i].trimEnd());
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

export interface HarnessSource {
  /** Paths that differ between two commits (added, changed or deleted). */
  changedBetween(from: string, to: string): Promise<string[]>;
  /** A file's text at a commit; '' when it does not exist there. */
  fileAt(commit: string, rel: string): Promise<string>;
}

/**
 * The paths of `to` that change pytest's collection or reporting compared with `base`, sorted.
 * `reported`: files our report plugin saw replace pytest's functions or register a plugin while
 * the tests ran (any module of the package); those that differ from the base are flagged too.
 */
export async function findHarnessTampering(repo: HarnessSource, base: string, to: string, reported: readonly string[] = []): Promise<string[]> {
  const flagged: string[] = [];
  const seen = new Set(reported);
  for (const rel of await repo.changedBetween(base, to)) {
    const kind = harnessKind(rel);
    if (kind === 'file' || seen.has(rel)) flagged.push(rel);
    else if (kind === 'section') {
      const [before, after] = await Promise.all([repo.fileAt(base, rel), repo.fileAt(to, rel)]);
      if (pytestSection(rel, before) !== pytestSection(rel, after)) flagged.push(rel);
    }
  }
  return flagged.sort();
}
