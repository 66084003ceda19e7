// What the environment of a candidate installs, read from the oracle's dependency set (the same
// one mining compared): the project's runtime requirements, its test extras and groups, its
// requirement files; and the Python its `requires-python` allows. The project itself is not
// installed: the harness imports it from the working code (PYTHONPATH=src:.), so the tests
// always see the code under test, never a copy frozen into the image.
import type { DependencySet } from './dependency-set';
import { normalizeRequirement, normalizeSpecifier } from './requirement-normalize';

export interface EnvironmentPlan {
  /** PEP 508 requirements, sorted, unique. */
  requirements: string[];
  /** The Python the declared `requires-python` allows (newest of KNOWN_PYTHONS), or undefined when none is declared. */
  python: string | undefined;
  /** What the plan could not turn into a requirement (a setup.py read as text, an unconvertible Poetry constraint). */
  notes: string[];
}

/** Pythons a default base image is chosen among, newest first (python:<X.Y>-slim). */
export const KNOWN_PYTHONS = ['3.13', '3.12', '3.11', '3.10', '3.9', '3.8'] as const;
export const DEFAULT_PYTHON = '3.12';

/** What our pytest report plugin needs (report-plugin/sweci_pytest_report.py: pytest 7 or later). */
export const HARNESS_REQUIREMENTS = ['pytest>=7'];

/** Extras and groups that hold what the tests need (PEP 685 normalized names). */
const TEST_GROUP = /^(tests?|testing|dev|develop|development|ci|check|pytest)$|(^|-)tests?($|-)/;
/** Requirement files that are not for running the tests. */
const NOT_FOR_TESTS = /(^|[-_./])(docs?|lint|release|publish|bench(mark)?s?|typing|mypy)([-_.]|$)/i;

function isTestGroup(name: string): boolean {
  return TEST_GROUP.test(name);
}

/** Splits `group|requirement` (a requirement may hold `|` only inside a URL, after the first). */
function split(entry: string): [string, string] {
  const at = entry.indexOf('|');
  return [entry.slice(0, at), entry.slice(at + 1)];
}

export function environmentPlan(set: Pick<DependencySet, 'entries'>): EnvironmentPlan {
  const requirements = new Set<string>(HARNESS_REQUIREMENTS);
  const notes: string[] = [];
  let python: string | undefined;
  const groups = new Map<string, string[]>();
  for (const e of set.entries) {
    const [group, req] = split(e);
    const list = groups.get(group) ?? [];
    list.push(req);
    groups.set(group, list);
  }
  // [dependency-groups] with include-group, resolved once each.
  const groupItems = (name: string, seen = new Set<string>()): string[] => {
    if (seen.has(name)) return [];
    seen.add(name);
    return (groups.get(`group:${name}`) ?? []).flatMap((r) => (r.startsWith('include-group:') ? groupItems(r.slice('include-group:'.length), seen) : [r]));
  };
  const add = (req: string): void => {
    if (req.startsWith('python') && /^python[<>=!~]/.test(req)) {
      python ??= pythonFor(req.slice('python'.length));
      return;
    }
    requirements.add(req);
  };
  for (const [group, reqs] of groups) {
    if (group === 'project' || group === 'setup.cfg:install_requires' || group === 'setup.py:install_requires') reqs.forEach(add);
    else if (group === 'setup.cfg:tests_require' || group === 'setup.py:tests_require') reqs.forEach(add);
    else if (group === 'setup.cfg:python_requires' || group === 'setup.py:python_requires') reqs.forEach(add);
    else if (/^(setup\.(cfg|py):)?extra:/.test(group) && isTestGroup(group.replace(/^.*extra:/, ''))) reqs.forEach(add);
    else if (group.startsWith('group:') && isTestGroup(group.slice('group:'.length))) groupItems(group.slice('group:'.length)).forEach(add);
    else if (group === 'poetry' || group === 'poetry-dev' || (group.startsWith('poetry-group:') && isTestGroup(group.slice('poetry-group:'.length)))) {
      for (const r of reqs) {
        const converted = fromPoetry(r);
        if (converted === undefined) notes.push(`Poetry's ${r} is not a constraint this plan converts; left out`);
        else if (converted !== null) add(converted);
      }
    } else if (group.startsWith('requirements:')) {
      const file = group.slice('requirements:'.length);
      if (NOT_FOR_TESTS.test(file.replace(/^.*\//, ''))) continue;
      for (const r of reqs) {
        // Includes are followed by mining (their lines are their own group); -e . is the project.
        if (/^(include|constraint|include-outside|editable):/.test(r) || r === 'missing') continue;
        add(r);
      }
    } else if (group === 'setup.py' && reqs.some((r) => r.startsWith('content:'))) {
      notes.push("setup.py's arguments are not literals: its dependencies are not read (a missing module is repaired when collection asks for it)");
    }
  }
  return { requirements: [...requirements].sort(), python, notes };
}

/** `name "constraint"` or `name {json}` as mining wrote Poetry's tables → PEP 508; null: nothing to install (python, optional). */
function fromPoetry(entry: string): string | null | undefined {
  const space = entry.indexOf(' ');
  const name = entry.slice(0, space);
  let value: unknown;
  try {
    value = JSON.parse(entry.slice(space + 1));
  } catch {
    return undefined;
  }
  if (name === 'python') return typeof value === 'string' ? `python${normalizeSpecifier(poetryConstraint(value) ?? '')}` : null;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const table = value as Record<string, unknown>;
    if (table.optional === true) return null;
    if (table.path !== undefined || table.git !== undefined || table.url !== undefined) return undefined;
    value = table.version ?? '*';
  }
  if (typeof value !== 'string') return undefined;
  const spec = poetryConstraint(value);
  return spec === undefined ? undefined : normalizeRequirement(`${name}${spec}`);
}

/** Poetry's `^1.2`, `~1.2`, `1.2.*`, `*`, `>=1,<2` as a PEP 440 specifier; undefined when not read. */
function poetryConstraint(text: string): string | undefined {
  const clauses: string[] = [];
  for (const raw of text.split(',')) {
    const c = raw.trim();
    if (c === '' || c === '*') continue;
    let m: RegExpExecArray | null;
    if ((m = /^\^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(c))) {
      const [maj, min, pat] = [Number(m[1]), m[2] === undefined ? undefined : Number(m[2]), m[3] === undefined ? undefined : Number(m[3])];
      const upper = maj > 0 || min === undefined ? `${maj + 1}` : min > 0 || pat === undefined ? `0.${min + 1}` : `0.0.${(pat ?? 0) + 1}`;
      clauses.push(`>=${c.slice(1)}`, `<${upper}`);
    } else if ((m = /^~(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(c))) {
      const upper = m[2] === undefined ? `${Number(m[1]) + 1}` : `${m[1]}.${Number(m[2]) + 1}`;
      clauses.push(`>=${c.slice(1)}`, `<${upper}`);
    } else if (/^(===|==|!=|<=|>=|~=|<|>)\s*[\w.*+!-]+$/.test(c)) clauses.push(c.replace(/\s+/g, ''));
    else if (/^\d[\w.*+!-]*$/.test(c)) clauses.push(`==${c}`);
    else return undefined;
  }
  return clauses.join(',');
}

function versionTuple(v: string): number[] {
  return v.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether Python `version` (X.Y) satisfies one clause of a requires-python specifier. */
function satisfies(version: string, clause: string): boolean {
  const m = /^(===|==|!=|<=|>=|~=|<|>)(.+)$/.exec(clause);
  if (!m) return true;
  const [, op, raw] = m;
  const v = versionTuple(version);
  if (raw.endsWith('.*')) {
    const prefix = versionTuple(raw.slice(0, -2));
    const same = prefix.every((p, i) => v[i] === p);
    return op === '!=' ? !same : same;
  }
  const w = versionTuple(raw);
  // An X.Y interpreter is X.Y.0 up to X.Y.N: `>=3.8.1` allows 3.8 (a later patch release), `<3.9` does not allow 3.9.
  const cmp = compare(v, w.slice(0, 2));
  switch (op) {
    case '>=':
    case '>':
      return cmp > 0 || (cmp === 0 && (op === '>=' || w.length > 2));
    case '<':
      return compare(v, w) < 0;
    case '<=':
      return cmp <= 0;
    case '==':
    case '===':
      return cmp === 0;
    case '!=':
      return w.length > 2 || cmp !== 0;
    case '~=': {
      const upper = w.length > 2 ? [w[0], w[1] + 1] : [w[0] + 1];
      return compare(v, w.slice(0, 2)) >= 0 && compare(v, upper) < 0;
    }
    default:
      return true;
  }
}

/** The newest known Python a normalized specifier (`<4,>=3.9`) allows; DEFAULT_PYTHON when none is known to. */
function pythonFor(specifier: string): string {
  const clauses = specifier.split(',').filter((c) => c !== '');
  return KNOWN_PYTHONS.find((v) => clauses.every((c) => satisfies(v, c))) ?? DEFAULT_PYTHON;
}
