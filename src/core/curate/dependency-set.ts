// The dependency set of one commit (the paper's Step 2 compares these between consecutive
// commits): every declared requirement, normalized, tagged with where it is declared. Reordering,
// re-casing, spacing, comments and unrelated sections of the files give the same set.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { isRecord } from '../util/is-record';
import { setupPyArguments, type PyLiteral } from './python-literal';
import { normalizeName, normalizeRequirement, normalizeSpecifier } from './requirement-normalize';

export interface DependencySetOptions {
  /** Lockfiles count too (their whole content): any re-lock ends a span. */
  lockfiles: boolean;
}

export interface DependencySet {
  /** `group|requirement`, sorted, unique. Two commits have the same dependencies when these are equal. */
  entries: string[];
  /** Every path read or looked for (includes of includes, missing ones too): a change to any of them may change the set. */
  consulted: string[];
  /** Files that could not be read as what they are (their whole content counted instead), as `path: why`. */
  problems: string[];
}

const LOCKFILES = /^(poetry\.lock|uv\.lock|pdm\.lock|Pipfile\.lock|pylock(\.[^/]+)?\.toml|requirements[^/]*\.lock)$/;
const ROOT_REQUIREMENTS = /^([^/]*[-_])?requirements([-_.][^/]*)?\.(txt|in)$/i;
const DIR_REQUIREMENTS = /^requirements\/[^/]+\.(txt|in)$/i;

/** Whether `p` (a path from the repository's root) is read on its own, not only through an include. */
export function isDependencyFile(p: string, options: DependencySetOptions): boolean {
  if (p === 'pyproject.toml' || p === 'setup.cfg' || p === 'setup.py') return true;
  if (ROOT_REQUIREMENTS.test(p) || DIR_REQUIREMENTS.test(p)) return true;
  return options.lockfiles && LOCKFILES.test(p);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A file's text without what never matters: blank lines, whole-line comments, trailing spaces. */
function significantLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
    .join('\n');
}

/** What one file's text declares: its entries, the files it includes, its problems. */
interface FileParse {
  entries: string[];
  includes: string[];
  problems: string[];
}

/**
 * Parses kept by file and text. A history's walk recomputes the set at every dependency change,
 * mostly of one file: the files that did not change are not parsed again.
 */
export type DependencyParseCache = Map<string, FileParse>;

/** Reads the set: `read` gives a path's text at the commit, undefined when absent. */
export async function dependencySet(
  files: readonly string[],
  read: (p: string) => Promise<string | undefined>,
  options: DependencySetOptions,
  cache?: DependencyParseCache,
): Promise<DependencySet> {
  const entries = new Set<string>();
  const consulted = new Set<string>();
  const problems: string[] = [];
  /** `file`'s text parsed by `parse` (or as it was before): its entries added, its includes returned. */
  const parsed = (file: string, text: string, parse: (add: Add, problems: string[]) => string[] | void): string[] => {
    const key = `${file}\0${text}`;
    let p = cache?.get(key);
    if (!p) {
      const found: FileParse = { entries: [], includes: [], problems: [] };
      found.includes = parse((group, requirement) => void found.entries.push(`${group}|${requirement}`), found.problems) ?? [];
      cache?.set(key, found);
      p = found;
    }
    for (const e of p.entries) entries.add(e);
    problems.push(...p.problems);
    return p.includes;
  };
  const add = (group: string, requirement: string): void => {
    entries.add(`${group}|${requirement}`);
  };
  const readFile = async (p: string): Promise<string | undefined> => {
    consulted.add(p);
    return read(p);
  };
  const requirementFiles = new Set<string>();

  for (const file of [...files].sort()) {
    if (!isDependencyFile(file, options)) continue;
    if (ROOT_REQUIREMENTS.test(file) || DIR_REQUIREMENTS.test(file)) {
      requirementFiles.add(file);
      continue;
    }
    const text = await readFile(file);
    if (text === undefined) continue;
    if (file === 'pyproject.toml') {
      for (const more of parsed(file, text, (record, notes) => pyprojectEntries(text, record, notes))) requirementFiles.add(more);
    } else if (file === 'setup.cfg') parsed(file, text, (record) => setupCfgEntries(text, record));
    else if (file === 'setup.py') parsed(file, text, (record) => setupPyEntries(text, record));
    else add(`lock:${file}`, digest(significantLines(text)));
  }

  // Requirement files, and every file they include with -r / -c (once each, whatever the cycles).
  const queue = [...requirementFiles].sort();
  const seen = new Set<string>(queue);
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const text = await readFile(file);
    if (text === undefined) {
      add(`requirements:${file}`, 'missing');
      continue;
    }
    for (const include of parsed(file, text, (record) => requirementsEntries(file, text, record))) {
      if (seen.has(include)) continue;
      seen.add(include);
      queue.push(include);
    }
  }
  return { entries: [...entries].sort(), consulted: [...consulted].sort(), problems };
}

type Add = (group: string, requirement: string) => void;

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Stable text of a TOML or Python value: keys sorted, strings without spaces (Poetry's constraints). */
function canonical(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.replace(/\s+/g, ''));
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** pyproject.toml's tables; returns requirement files it names (setuptools' dynamic dependencies). */
function pyprojectEntries(text: string, add: Add, problems: string[]): string[] {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (err) {
    problems.push(`pyproject.toml: not valid TOML (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    add('pyproject', `unreadable:${digest(significantLines(text))}`);
    return [];
  }
  const table = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});
  const project = table(doc.project);
  for (const r of stringsOf(project.dependencies)) add('project', normalizeRequirement(r));
  if (typeof project['requires-python'] === 'string') add('project', `python${normalizeSpecifier(project['requires-python'])}`);
  for (const [extra, reqs] of Object.entries(table(project['optional-dependencies']))) {
    for (const r of stringsOf(reqs)) add(`extra:${normalizeName(extra)}`, normalizeRequirement(r));
  }
  for (const [group, items] of Object.entries(table(doc['dependency-groups']))) {
    if (!Array.isArray(items)) continue;
    for (const item of items) {
      if (typeof item === 'string') add(`group:${normalizeName(group)}`, normalizeRequirement(item));
      else if (isRecord(item) && typeof item['include-group'] === 'string') {
        add(`group:${normalizeName(group)}`, `include-group:${normalizeName(item['include-group'])}`);
      }
    }
  }
  for (const r of stringsOf(table(doc['build-system']).requires)) add('build', normalizeRequirement(r));

  const tool = table(doc.tool);
  const poetry = table(tool.poetry);
  const poetryTable = (group: string, deps: unknown): void => {
    for (const [name, constraint] of Object.entries(table(deps))) add(group, `${normalizeName(name)} ${canonical(constraint)}`);
  };
  poetryTable('poetry', poetry.dependencies);
  poetryTable('poetry-dev', poetry['dev-dependencies']);
  for (const [group, body] of Object.entries(table(poetry.group))) poetryTable(`poetry-group:${normalizeName(group)}`, table(body).dependencies);
  for (const [extra, names] of Object.entries(table(poetry.extras))) {
    for (const n of stringsOf(names)) add(`poetry-extra:${normalizeName(extra)}`, normalizeName(n));
  }

  // [tool.setuptools.dynamic] dependencies = {file = ["requirements.txt"]}: those files declare them.
  const dynamic = table(table(tool.setuptools).dynamic);
  const files: string[] = [];
  for (const key of ['dependencies', 'optional-dependencies']) {
    const spec = dynamic[key];
    const values = key === 'dependencies' ? [spec] : Object.values(table(spec));
    for (const v of values) {
      const f = table(v).file;
      for (const p of typeof f === 'string' ? [f] : stringsOf(f)) {
        const clean = path.posix.normalize(p);
        if (!clean.startsWith('..') && !path.posix.isAbsolute(clean)) files.push(clean);
      }
    }
  }
  return files;
}

/** setup.cfg: [options] install/setup/tests requirements and [options.extras_require]. */
function setupCfgEntries(text: string, add: Add): void {
  const sections = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | undefined;
  let key: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(raw)) continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      const name = header[1].trim().toLowerCase();
      section = sections.get(name) ?? new Map<string, string[]>();
      sections.set(name, section);
      key = undefined;
      continue;
    }
    const value = raw.replace(/\s+[#;].*$/, '').trim();
    if (/^\s/.test(raw) && key !== undefined && section) {
      section.get(key)?.push(value);
      continue;
    }
    const kv = /^([^=:]+)[=:](.*)$/.exec(raw);
    if (!kv || !section) continue;
    key = kv[1].trim().toLowerCase().replace(/-/g, '_');
    section.set(key, [kv[2].replace(/\s+[#;].*$/, '').trim()]);
  }
  const lines = (values: string[] | undefined): string[] => (values ?? []).filter((v) => v !== '');
  const options = sections.get('options');
  for (const k of ['install_requires', 'setup_requires', 'tests_require']) {
    for (const r of lines(options?.get(k))) add(`setup.cfg:${k}`, r.startsWith('file:') ? r.replace(/\s+/g, '') : normalizeRequirement(r));
  }
  const pythonRequires = lines(options?.get('python_requires'))[0];
  if (pythonRequires) add('setup.cfg:python_requires', `python${normalizeSpecifier(pythonRequires)}`);
  for (const [extra, reqs] of sections.get('options.extras_require') ?? []) {
    for (const r of lines(reqs)) add(`setup.cfg:extra:${normalizeName(extra)}`, normalizeRequirement(r));
  }
}

/** setup.py: its literal dependency arguments, or, when they are not literals, its whole content. */
function setupPyEntries(text: string, add: Add): void {
  const args = setupPyArguments(text);
  if (args === undefined) {
    add('setup.py', `content:${digest(significantLines(text))}`);
    return;
  }
  const requirements = (v: PyLiteral): string[] => (typeof v === 'string' ? v.split('\n') : Array.isArray(v) ? v.flatMap(requirements) : []);
  const each = (v: PyLiteral): string[] =>
    requirements(v)
      .map((r) => r.replace(/(^|\s)#.*$/, '').trim())
      .filter((r) => r !== '');
  for (const v of args.install_requires ?? []) for (const r of each(v)) add('setup.py:install_requires', normalizeRequirement(r));
  for (const v of args.setup_requires ?? []) for (const r of each(v)) add('setup.py:setup_requires', normalizeRequirement(r));
  for (const v of args.tests_require ?? []) for (const r of each(v)) add('setup.py:tests_require', normalizeRequirement(r));
  for (const v of args.python_requires ?? []) if (typeof v === 'string') add('setup.py:python_requires', `python${normalizeSpecifier(v)}`);
  for (const v of args.extras_require ?? []) {
    if (typeof v !== 'object' || Array.isArray(v)) continue;
    for (const [extra, reqs] of Object.entries(v)) for (const r of each(reqs)) add(`setup.py:extra:${normalizeName(extra)}`, normalizeRequirement(r));
  }
}

/**
 * One requirements file's lines (continuations joined, comments and pip's options dropped);
 * returns the files it includes with -r/-c, as paths from the repository's root.
 */
function requirementsEntries(file: string, text: string, add: Add): string[] {
  const group = `requirements:${file}`;
  const includes: string[] = [];
  const joined = text.replace(/\\\r?\n/g, ' ');
  for (const raw of joined.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const include = /^(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?=[^-\s]))(\S+)/.exec(line);
    if (include) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), include[1]));
      if (target.startsWith('..') || path.posix.isAbsolute(include[1])) add(group, `include-outside:${include[1]}`);
      else {
        add(group, `${line.startsWith('-c') || line.startsWith('--constraint') ? 'constraint' : 'include'}:${target}`);
        includes.push(target);
      }
      continue;
    }
    const editable = /^(?:-e|--editable)(?:\s*=\s*|\s+)(\S+)/.exec(line);
    if (editable) {
      add(group, `editable:${editable[1]}`);
      continue;
    }
    if (line.startsWith('-')) continue; // an index, a find-links, --pre: where from, not what
    // A requirement's own pip options (--hash=…) say which file, not which dependency.
    add(group, normalizeRequirement(line.replace(/\s--?[a-z][\w-]*(?:[=\s]\S+)?/g, '')));
  }
  return includes;
}
