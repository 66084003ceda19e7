// What a requirement is checked against: the files of app/code, the non-passed tests of
// summary.jsonl and the tests found in app/code's test files. Bounded, so a huge codebase
// costs a bounded scan: a listing cut short is marked incomplete (and absence proves nothing).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseSummaryJsonl, type SummaryEntry } from '../gap/summary-entry';
import type { TaskFolder } from '../workspace/task-folder';
import { isTestFile, testIdsInSource } from './scan-tests';

export interface RequirementContext {
  /** Posix paths of the files under app/code, relative to it. */
  codeFiles: Set<string>;
  /** False when the listing stopped at its bound. */
  codeFilesComplete: boolean;
  /** summary.jsonl, by node id. */
  summary: Map<string, SummaryEntry>;
  /** summary.jsonl's ids plus the test functions found in app/code. */
  knownTests: Set<string>;
}

export const MAX_CODE_FILES = 50_000;
const MAX_TEST_FILES = 2_000;
const MAX_TEST_FILE_BYTES = 512 * 1024;
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '__pycache__',
  'node_modules',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.eggs',
]);

export async function loadRequirementContext(task: TaskFolder): Promise<RequirementContext> {
  const codeFiles = new Set<string>();
  const testFiles: string[] = [];
  let complete = true;
  const queue = [''];
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(path.join(task.codeDir, rel), { withFileTypes: true });
    } catch {
      // Without app/code itself nothing can be said to be missing from it.
      if (rel === '') complete = false;
      continue;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) queue.push(child);
      } else if (codeFiles.size >= MAX_CODE_FILES) {
        complete = false;
      } else {
        codeFiles.add(child);
        if (isTestFile(e.name) && testFiles.length < MAX_TEST_FILES) testFiles.push(child);
      }
    }
  }
  const summary = new Map<string, SummaryEntry>();
  const summaryText = await fs.readFile(task.summaryFile, 'utf8').catch(() => '');
  for (const entry of parseSummaryJsonl(summaryText)) summary.set(entry.nodeid, entry);
  const knownTests = new Set(summary.keys());
  for (const rel of testFiles) {
    const file = path.join(task.codeDir, rel);
    // lstat: a test file that is a symlink is not followed (it could point at the oracle).
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat?.isFile() || stat.size > MAX_TEST_FILE_BYTES) continue;
    const source = await fs.readFile(file, 'utf8').catch(() => '');
    for (const id of testIdsInSource(rel, source)) knownTests.add(id);
  }
  return { codeFiles, codeFilesComplete: complete, summary, knownTests };
}
