// Step 2 of the paper's curation (§3.1): the first-parent chain, oldest first; every maximal run
// of consecutive commits with the same dependency set that is longer than one commit is a
// candidate (base = its first commit, oracle = its last); pairs below the line thresholds of
// `git diff --numstat base oracle` are dropped, each with its reason.
import { throwIfAborted } from '../util/errors';
import { BlobReader, firstParentLog, NumstatReader, type LoggedCommit } from './git-bulk';
import { dependencySet, isDependencyFile, type DependencyParseCache, type DependencySet } from './dependency-set';
import { isPythonTestFile, isTestPath } from './test-paths';
import { UserError } from '../util/errors';

export interface MineOptions {
  lockfiles: boolean;
  minChangedLines: number;
  minSourceLines: number;
  /** Cut spans longer than this into windows of at most this many commits (consecutive windows share an end). */
  maxSpanCommits?: number;
  signal?: AbortSignal;
  /**
   * Each span (window) as the walk finds it, oldest first, before its lines are counted (one
   * `git diff-tree` pass, done when the walk is): the editor lists candidates as mining proceeds.
   */
  onSpan?: (span: FoundSpan) => void;
}

/** A candidate as the walk finds it: everything but its line counts and its drop. */
export type FoundSpan = Omit<MinedCandidate, 'changedLines' | 'sourceLines' | 'dropped'>;

export const DEFAULT_MIN_CHANGED_LINES = 1000;
export const DEFAULT_MIN_SOURCE_LINES = 500;

export type MineDropCode = 'no-tests' | 'min-changed-lines' | 'min-source-lines';

export interface MinedCandidate {
  /** `<base 12>-<oracle 12>`: stable across runs, names the candidate in curation.jsonl and as a task. */
  id: string;
  base: string;
  oracle: string;
  /** Positions of base and oracle in the first-parent chain, from 0 (oldest). */
  baseIndex: number;
  oracleIndex: number;
  /** Commits in the span, base and oracle included. */
  commits: number;
  baseTime: string;
  oracleTime: string;
  /** Committer days from base to oracle, to one decimal. */
  days: number;
  /** Added plus deleted lines of `git diff --numstat base oracle`. */
  changedLines: number;
  /** The same outside test files. */
  sourceLines: number;
  /** How many requirements the span's dependency set holds. */
  dependencies: number;
  /** The dependency change that ended the span (none when the span reaches the branch's tip or a window was cut). */
  endedBy?: { commit: string; added: string[]; removed: string[] };
  dropped?: { code: MineDropCode; reason: string };
}

export interface MineResult {
  tip: string;
  /** Commits on the first-parent chain. */
  commits: number;
  /** Commits whose dependency set differs from their parent's. */
  dependencyChanges: number;
  /** Every span longer than one commit (windows when cut), oldest first. */
  candidates: MinedCandidate[];
  /** Dependency files that could not be read as what they are, named with the commit: their whole content counted. */
  problems: string[];
}

const sha12 = (s: string): string => s.slice(0, 12);

/** Mines `ref` of the repository at `dir` (checked by openRepository). */
export async function mineSpans(dir: string, ref: string, options: MineOptions): Promise<MineResult> {
  // cat-file and diff-tree start beside the log pass: their start-up is not on the path.
  const reader = new BlobReader(dir);
  const numstat = new NumstatReader(dir, options.signal);
  let log: LoggedCommit[];
  let walked: Awaited<ReturnType<typeof dependencySets>>;
  // Spans close as the walk goes (a set that differs from the last ends the one before it).
  const found: FoundSpan[] = [];
  let start = 0;
  const close = (sets: readonly DependencySet[], end: number, next?: DependencySet): void => {
    for (const [i, j, last] of windowsOf(start, end, options.maxSpanCommits)) {
      const span = foundSpan(log, sets, next, i, j, last);
      found.push(span);
      numstat.add(span);
      options.onSpan?.(span);
    }
  };
  try {
    log = await firstParentLog(dir, ref, options.signal);
    throwIfAborted(options.signal);
    walked = await dependencySets(reader, log, options, (sets, k) => {
      if (k > 0 && sets[k] !== sets[k - 1]) {
        close(sets, k - 1, sets[k]);
        start = k;
      }
    });
    if (log.length > 0) close(walked.sets, log.length - 1);
  } catch (err) {
    numstat.close();
    throw err;
  } finally {
    reader.close();
  }
  const { sets, hasTests, problems } = walked;
  if (!hasTests.some(Boolean)) {
    numstat.close();
    throw new UserError(
      `No tests found on the first-parent chain of ${ref}: no file is named test_*.py, *_test.py or conftest.py, or lies in a test/ or tests/ folder. SWE-CI tasks are measured by pytest; curate a repository with a pytest suite.`,
    );
  }

  const stats = await numstat.result();
  const candidates = found.map((span): MinedCandidate => {
    let changedLines = 0;
    let sourceLines = 0;
    for (const e of stats.get(span.oracle) ?? []) {
      changedLines += e.lines;
      if (!isTestPath(e.path)) sourceLines += e.lines;
    }
    const { endedBy, dependencies, ...facts } = span;
    const c: MinedCandidate = { ...facts, changedLines, sourceLines, dependencies, ...(endedBy ? { endedBy } : {}) };
    if (!hasTests[span.oracleIndex]) c.dropped = { code: 'no-tests', reason: 'the oracle has no test files' };
    else if (changedLines < options.minChangedLines) {
      c.dropped = { code: 'min-changed-lines', reason: `${changedLines} changed lines, fewer than --min-changed-lines ${options.minChangedLines}` };
    } else if (sourceLines < options.minSourceLines) {
      c.dropped = {
        code: 'min-source-lines',
        reason: `${sourceLines} changed lines outside test files, fewer than --min-source-lines ${options.minSourceLines}`,
      };
    }
    return c;
  });
  let dependencyChanges = 0;
  for (let k = 1; k < sets.length; k++) if (sets[k] !== sets[k - 1]) dependencyChanges++;
  return { tip: log[log.length - 1].sha, commits: log.length, dependencyChanges, candidates, problems };
}

/** A run of equal sets from i to j (longer than one commit), cut into windows of at most max commits; `last` marks the one that ends the run. */
function windowsOf(i: number, j: number, max: number | undefined): Array<[number, number, boolean]> {
  if (j <= i) return [];
  if (max === undefined || j - i + 1 <= max) return [[i, j, true]];
  const windows: Array<[number, number, boolean]> = [];
  for (let start = i; start < j; start += max - 1) windows.push([start, Math.min(j, start + max - 1), start + max - 1 >= j]);
  return windows;
}

/** A window's facts from the log and the sets; `next` is the set that ended the run (none at the tip). */
function foundSpan(
  log: readonly LoggedCommit[],
  sets: readonly DependencySet[],
  next: DependencySet | undefined,
  i: number,
  j: number,
  last: boolean,
): FoundSpan {
  const base = log[i];
  const oracle = log[j];
  const span: FoundSpan = {
    id: `${sha12(base.sha)}-${sha12(oracle.sha)}`,
    base: base.sha,
    oracle: oracle.sha,
    baseIndex: i,
    oracleIndex: j,
    commits: j - i + 1,
    baseTime: new Date(base.time * 1000).toISOString(),
    oracleTime: new Date(oracle.time * 1000).toISOString(),
    days: Math.round((oracle.time - base.time) / 8640) / 10,
    dependencies: sets[j].entries.length,
  };
  if (last && next && j + 1 < log.length) {
    const before = new Set(sets[j].entries);
    const after = new Set(next.entries);
    span.endedBy = {
      commit: log[j + 1].sha,
      added: next.entries.filter((e) => !before.has(e)),
      removed: sets[j].entries.filter((e) => !after.has(e)),
    };
  }
  return span;
}

/**
 * Each commit's dependency set, walking the chain once and keeping the tree's paths as blob ids.
 * A set is recomputed only at a commit that touches a dependency file or a file the last set read
 * (an include); equal sets are one object, so comparing commits is comparing references.
 */
async function dependencySets(
  reader: BlobReader,
  log: readonly LoggedCommit[],
  options: MineOptions,
  onSet: (sets: readonly DependencySet[], index: number) => void,
): Promise<{ sets: DependencySet[]; hasTests: boolean[]; problems: string[] }> {
  // Every dependency file's blobs asked for at once: cat-file answers them in one stream, and
  // the walk below finds them read (only includes elsewhere in the tree wait for a round trip).
  for (const commit of log) {
    for (const [p, blob] of commit.changes) if (blob !== null && isDependencyFile(p, options)) void reader.read(blob).catch(() => undefined);
  }
  const tree = new Map<string, string>();
  const roots = new Set<string>();
  let tests = 0;
  const byKey = new Map<string, DependencySet>();
  const parses: DependencyParseCache = new Map();
  const sets: DependencySet[] = [];
  const hasTests: boolean[] = [];
  const problems: string[] = [];
  let current: DependencySet | undefined;
  for (const commit of log) {
    throwIfAborted(options.signal);
    let touched = current === undefined;
    for (const [p, blob] of commit.changes) {
      const had = tree.has(p);
      if (blob === null) tree.delete(p);
      else tree.set(p, blob);
      if (had !== (blob !== null) && isPythonTestFile(p)) tests += blob === null ? -1 : 1;
      if (isDependencyFile(p, options)) {
        touched = true;
        if (blob === null) roots.delete(p);
        else roots.add(p);
      } else if (current?.consulted.includes(p)) touched = true;
    }
    if (touched) {
      const read = async (p: string): Promise<string | undefined> => {
        const blob = tree.get(p);
        if (blob === undefined) return undefined;
        const bytes = await reader.read(blob);
        return bytes?.toString('utf8');
      };
      const next = await dependencySet([...roots], read, options, parses);
      const key = next.entries.join('\n');
      const known = byKey.get(key);
      if (known) current = known;
      else {
        byKey.set(key, next);
        current = next;
        for (const problem of next.problems) problems.push(`${problem} (at commit ${commit.sha})`);
      }
    }
    sets.push(current as DependencySet);
    hasTests.push(tests > 0);
    onSet(sets, sets.length - 1);
  }
  return { sets, hasTests, problems };
}
