// Step 2 of the paper's curation (§3.1): the first-parent chain, oldest first; every maximal run
// of consecutive commits with the same dependency set that is longer than one commit is a
// candidate (base = its first commit, oracle = its last); pairs below the line thresholds of
// `git diff --numstat base oracle` are dropped, each with its reason.
import { throwIfAborted } from '../util/errors';
import { BlobReader, firstParentLog, numstats, type LoggedCommit } from './git-bulk';
import { dependencySet, isDependencyFile, type DependencySet } from './dependency-set';
import { isPythonTestFile, isTestPath } from './test-paths';
import { UserError } from '../util/errors';

export interface MineOptions {
  lockfiles: boolean;
  minChangedLines: number;
  minSourceLines: number;
  /** Cut spans longer than this into windows of at most this many commits (consecutive windows share an end). */
  maxSpanCommits?: number;
  signal?: AbortSignal;
}

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
  // cat-file starts beside the log pass: its start-up is not on the path.
  const reader = new BlobReader(dir);
  let log: LoggedCommit[];
  let walked: Awaited<ReturnType<typeof dependencySets>>;
  try {
    log = await firstParentLog(dir, ref, options.signal);
    throwIfAborted(options.signal);
    walked = await dependencySets(reader, log, options);
  } finally {
    reader.close();
  }
  const { sets, hasTests, problems } = walked;
  if (!hasTests.some(Boolean)) {
    throw new UserError(
      `No tests found on the first-parent chain of ${ref}: no file is named test_*.py, *_test.py or conftest.py, or lies in a test/ or tests/ folder. SWE-CI tasks are measured by pytest; curate a repository with a pytest suite.`,
    );
  }

  const spans: Array<[number, number]> = [];
  for (let i = 0; i < log.length;) {
    let j = i;
    while (j + 1 < log.length && sets[j + 1] === sets[i]) j++;
    if (j > i) spans.push([i, j]);
    i = j + 1;
  }
  const windows: Array<[number, number, boolean]> = [];
  for (const [i, j] of spans) {
    const max = options.maxSpanCommits;
    if (max === undefined || j - i + 1 <= max) {
      windows.push([i, j, true]);
      continue;
    }
    for (let start = i; start < j; start += max - 1) windows.push([start, Math.min(j, start + max - 1), start + max - 1 >= j]);
  }

  const pairs = windows.map(([i, j]) => ({ base: log[i].sha, oracle: log[j].sha }));
  const stats = await numstats(dir, pairs, options.signal);
  const candidates = windows.map(([i, j, last]): MinedCandidate => {
    const base = log[i];
    const oracle = log[j];
    let changedLines = 0;
    let sourceLines = 0;
    for (const e of stats.get(oracle.sha) ?? []) {
      changedLines += e.lines;
      if (!isTestPath(e.path)) sourceLines += e.lines;
    }
    const c: MinedCandidate = {
      id: `${sha12(base.sha)}-${sha12(oracle.sha)}`,
      base: base.sha,
      oracle: oracle.sha,
      baseIndex: i,
      oracleIndex: j,
      commits: j - i + 1,
      baseTime: new Date(base.time * 1000).toISOString(),
      oracleTime: new Date(oracle.time * 1000).toISOString(),
      days: Math.round((oracle.time - base.time) / 8640) / 10,
      changedLines,
      sourceLines,
      dependencies: sets[j].entries.length,
    };
    if (last && j + 1 < log.length) {
      const before = new Set(sets[j].entries);
      const after = new Set(sets[j + 1].entries);
      c.endedBy = {
        commit: log[j + 1].sha,
        added: sets[j + 1].entries.filter((e) => !before.has(e)),
        removed: sets[j].entries.filter((e) => !after.has(e)),
      };
    }
    if (!hasTests[j]) c.dropped = { code: 'no-tests', reason: 'the oracle has no test files' };
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

/**
 * Each commit's dependency set, walking the chain once and keeping the tree's paths as blob ids.
 * A set is recomputed only at a commit that touches a dependency file or a file the last set read
 * (an include); equal sets are one object, so comparing commits is comparing references.
 */
async function dependencySets(
  reader: BlobReader,
  log: readonly LoggedCommit[],
  options: MineOptions,
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
      if (isPythonTestFile(p) && had !== (blob !== null)) tests += blob === null ? -1 : 1;
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
      const next = await dependencySet([...roots], read, options);
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
  }
  return { sets, hasTests, problems };
}
