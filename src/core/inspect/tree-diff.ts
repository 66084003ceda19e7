// Which files differ between two revisions, by blob id. Blob ids are content hashes, so two
// trees compare the same way whether they sit in one repository or two (an agent's commit in
// the history store against a developer's commit in the oracle's clone).
import { gitAt } from '../util/git';
import type { Revision } from './revisions';

export interface TreeEntry {
  mode: string;
  /** The object id (a blob, or a commit for a submodule). */
  id: string;
}

export type FileChangeStatus = 'added' | 'deleted' | 'modified';

export interface FileChange {
  /** Path relative to the code folder (posix). */
  path: string;
  status: FileChangeStatus;
}

/** Every file of `commit` in `gitDir`, by path. */
async function listTree(gitDir: string, commit: string, signal?: AbortSignal): Promise<Map<string, TreeEntry>> {
  const out = await gitAt(gitDir, { signal, env: { GIT_DIR: gitDir } }).raw(['ls-tree', '-r', '-z', '--full-tree', commit]);
  const entries = new Map<string, TreeEntry>();
  for (const line of out.split('\0')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const [mode, , id] = line.slice(0, tab).split(' ');
    entries.set(line.slice(tab + 1), { mode, id });
  }
  return entries;
}

/**
 * Top-level names a side's tree is read without. A replay scores each upstream commit without
 * its own tests (the target's are put in) and without its .git* files, so when one side is a
 * replay both sides are read without tests/ and .git*: the agent side's are the target's tests
 * and the base's .git* files, and listing them would only say the two sides were made apart.
 */
function leftOutNames(side: Revision['store'], other: Revision['store']): (top: string) => boolean {
  const replay = side === 'upstream' || other === 'upstream';
  return (top) => replay && (top === 'tests' || top === 'test' || top.startsWith('.git'));
}

function filtered(tree: Map<string, TreeEntry>, leaveOut: (top: string) => boolean): Map<string, TreeEntry> {
  const kept = new Map<string, TreeEntry>();
  for (const [p, e] of tree) if (!leaveOut(p.split('/')[0])) kept.set(p, e);
  return kept;
}

/** Files that differ from `before` to `after`, sorted by path. */
function diffTrees(before: Map<string, TreeEntry>, after: Map<string, TreeEntry>): FileChange[] {
  const changes: FileChange[] = [];
  for (const [p, e] of after) {
    const old = before.get(p);
    if (!old) changes.push({ path: p, status: 'added' });
    else if (old.id !== e.id || old.mode !== e.mode) changes.push({ path: p, status: 'modified' });
  }
  for (const p of before.keys()) if (!after.has(p)) changes.push({ path: p, status: 'deleted' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The files that differ between two revisions, each tree read as leftOutNames says. */
export async function diffRevisions(before: Revision, after: Revision, signal?: AbortSignal): Promise<FileChange[]> {
  const [a, b] = await Promise.all([listTree(before.gitDir, before.commit, signal), listTree(after.gitDir, after.commit, signal)]);
  return diffTrees(filtered(a, leftOutNames(before.store, after.store)), filtered(b, leftOutNames(after.store, before.store)));
}

/** A file's bytes at `commit`; undefined when the commit has no such file. */
export async function readFileAt(gitDir: string, commit: string, file: string, signal?: AbortSignal): Promise<Buffer | undefined> {
  const git = gitAt(gitDir, { signal, env: { GIT_DIR: gitDir } });
  const spec = `${commit}:${file}`;
  // cat-file -e exits non-zero for a missing path; anything else (a bad store) is a real error.
  const exists = await git.raw(['cat-file', '-e', spec]).then(
    () => true,
    () => false,
  );
  if (!exists) return undefined;
  return (await git.binaryCatFile(['blob', spec])) as Buffer;
}
