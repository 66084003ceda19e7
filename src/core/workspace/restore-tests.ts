// Before every pytest run the target's tests/ are put back; what differed is reported.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import { copyTree, listFiles } from '../util/copy-tree';
import { oracleLayout, type TaskRecord } from './layout';
import type { TaskFolder } from './task-folder';

/** pytest's own droppings are not test changes. */
export function isTestArtifact(rel: string): boolean {
  return rel.split('/').some((seg) => seg === '__pycache__' || seg === '.pytest_cache') || /\.py[cod]$/.test(rel);
}

const keep = (rel: string): boolean => !isTestArtifact(rel);

const COMPARE_BATCH = 32;

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
  // Compared a batch at a time: each pair is a few small reads the disk can serve together
  // (bounded, so a suite of thousands of files does not run out of file handles).
  const differing: string[] = [];
  for (let i = 0; i < actual.length; i += COMPARE_BATCH) {
    const batch = actual.slice(i, i + COMPARE_BATCH);
    const same = await Promise.all(batch.map(async (rel) => exp.has(rel) && (await sameEntry(path.join(expectedDir, rel), path.join(actualDir, rel)))));
    differing.push(...batch.filter((_, k) => !same[k]));
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
export async function restoreTargetTests(record: TaskRecord, task: TaskFolder, codeDir = task.codeDir): Promise<string[]> {
  if (record.testPaths) return restoreTestFiles(record, record.testPaths, codeDir);
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

async function lstatOf(p: string): Promise<import('node:fs').Stats | undefined> {
  return fs.lstat(p).catch(() => undefined);
}

/**
 * A SWE-bench instance's tests: each file its test patch touches is put back as the target has
 * it (a file the patch deletes is deleted). Folders on the way that an agent turned into a link
 * or a file are made folders again first: nothing is ever written through a link.
 */
async function restoreTestFiles(record: TaskRecord, testPaths: readonly string[], codeDir: string): Promise<string[]> {
  const targetDir = oracleLayout(record.oracleDir).targetCodeDir;
  if (!(await lstatOf(targetDir))?.isDirectory()) {
    throw new UserError(
      `The target's code of task ${record.task.id} is missing from its oracle (${targetDir}). Check the task out again to rebuild the oracle.`,
    );
  }
  const differing = new Set<string>();
  for (const rel of testPaths) {
    const source = path.join(targetDir, rel);
    const dest = path.join(codeDir, rel);
    const bent = await bentParent(codeDir, rel);
    const src = await lstatOf(source);
    if (bent) {
      differing.add(bent);
    } else {
      const dst = await lstatOf(dest);
      const same = src ? dst !== undefined && !dst.isDirectory() && (await sameEntry(source, dest)) : dst === undefined;
      if (same) continue;
      differing.add(rel);
    }
    if (bent || src) await unbend(codeDir, rel);
    await fs.rm(dest, { recursive: true, force: true });
    if (!src) continue;
    if (src.isSymbolicLink()) await fs.symlink(await fs.readlink(source), dest);
    else await fs.copyFile(source, dest);
    differing.add(rel);
  }
  return [...differing].sort();
}

/** The first folder on the way to `rel` that is a link or a file instead of a folder, if any. */
async function bentParent(codeDir: string, rel: string): Promise<string | undefined> {
  const segs = rel.split('/').slice(0, -1);
  for (let i = 1; i <= segs.length; i++) {
    const sub = segs.slice(0, i).join('/');
    const st = await lstatOf(path.join(codeDir, sub));
    if (!st) return undefined; // missing folders are made below, by us
    if (!st.isDirectory()) return sub;
  }
  return undefined;
}

/** Makes every folder on the way to `rel` a real folder (a link or file there is removed). */
async function unbend(codeDir: string, rel: string): Promise<void> {
  const segs = rel.split('/').slice(0, -1);
  for (let i = 1; i <= segs.length; i++) {
    const dir = path.join(codeDir, ...segs.slice(0, i));
    const st = await lstatOf(dir);
    if (st && !st.isDirectory()) await fs.rm(dir, { force: true });
    if (!st?.isDirectory()) await fs.mkdir(dir);
  }
}
