// What pytest is asked to run for a task. A SWE-CI task: `tests`, as the reference. A SWE-bench
// instance: the Python files its test patch touches, as SWE-bench runs them (its tests may live
// anywhere in the tree, and FAIL_TO_PASS / PASS_TO_PASS come from those files), going on past
// modules that do not import yet (a new test often imports what the base lacks).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface PytestSelection {
  nodeIds?: string[];
  continueOnCollectionErrors?: boolean;
}

/** {}: pytest's default for the task (`tests`). Call after the tests were put back. */
export async function pytestSelection(testPaths: readonly string[] | undefined, codeDir: string): Promise<PytestSelection> {
  if (!testPaths) return {};
  const files: string[] = [];
  for (const rel of testPaths) {
    // A name starting with "-" would reach pytest as an option.
    if (!rel.endsWith('.py') || rel.startsWith('-')) continue;
    const st = await fs.lstat(path.join(codeDir, rel)).catch(() => undefined);
    if (st?.isFile()) files.push(rel);
  }
  return { nodeIds: files, continueOnCollectionErrors: true };
}
