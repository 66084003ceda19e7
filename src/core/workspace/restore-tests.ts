// Before every pytest run the target's tests/ are put back (DESIGN §4); what differed is reported.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { copyTree, listFiles } from '../util/copy-tree';
import { oracleLayout, taskLayout, type TaskRecord } from './layout';

/** pytest's own droppings are not test changes. */
export function isTestArtifact(rel: string): boolean {
  return rel.split('/').some((seg) => seg === '__pycache__' || seg === '.pytest_cache') || /\.py[cod]$/.test(rel);
}

const keep = (rel: string): boolean => !isTestArtifact(rel);

async function sameEntry(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([fs.lstat(a), fs.lstat(b)]);
  if (sa.isSymbolicLink() || sb.isSymbolicLink()) {
    return sa.isSymbolicLink() && sb.isSymbolicLink() && (await fs.readlink(a)) === (await fs.readlink(b));
  }
  if (sa.size !== sb.size) return false;
  const [ca, cb] = await Promise.all([fs.readFile(a), fs.readFile(b)]);
  return ca.equals(cb);
}

/** Relative paths (under `tests/`) that differ between two tests folders: changed, added or removed. */
export async function diffTestTrees(expectedDir: string, actualDir: string): Promise<string[]> {
  const [expected, actual] = await Promise.all([listFiles(expectedDir, keep), listFiles(actualDir, keep)]);
  const exp = new Set(expected);
  const differing: string[] = [];
  for (const rel of actual) {
    if (!exp.has(rel) || !(await sameEntry(path.join(expectedDir, rel), path.join(actualDir, rel)))) differing.push(rel);
  }
  const act = new Set(actual);
  for (const rel of expected) if (!act.has(rel)) differing.push(rel);
  return differing.sort();
}

/**
 * Replaces `app/code/tests` (or `tests` of `codeDir`) with the oracle's copy of the target's
 * tests. Returns the files that differed (paths relative to the code folder, e.g.
 * `tests/test_x.py`), empty when nothing was touched.
 */
export async function restoreTargetTests(record: TaskRecord, taskDir: string, codeDir = taskLayout(taskDir).codeDir): Promise<string[]> {
  const source = oracleLayout(record.oracleDir).targetTestsDir;
  const dest = path.join(codeDir, 'tests');
  try {
    // lstat: a linked tests folder in the oracle is damage, never something to follow.
    if (!(await fs.lstat(source)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new UserError(
      `The target's tests of task ${record.task.id} are missing from its oracle (${source}). Check the task out again to rebuild the oracle.`,
    );
  }
  const differing = (await diffTestTrees(source, dest)).map((rel) => `tests/${rel}`);
  // A `tests` that is a file or a symlink is replaced as well.
  let destIsDir = false;
  try {
    destIsDir = (await fs.lstat(dest)).isDirectory();
  } catch {
    // missing: recreated below
  }
  if (differing.length === 0 && destIsDir) return [];
  if (!destIsDir) differing.push('tests');
  await fs.rm(dest, { recursive: true, force: true });
  await copyTree(source, dest, { filter: keep });
  return [...new Set(differing)].sort();
}
