// A SWE-bench instance's "target": its base commit with the test patch applied, made as a commit
// in the oracle's bare upstream clone (no work tree: the patch goes through a scratch index). The
// commit is deterministic, so the same instance always gets the same target sha.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UserError, errorMessage } from '../util/errors';
import { gitAt } from '../util/git';

const FIXED_IDENTITY = {
  GIT_AUTHOR_NAME: 'SWE-CI',
  GIT_AUTHOR_EMAIL: 'sweci@localhost',
  GIT_COMMITTER_NAME: 'SWE-CI',
  GIT_COMMITTER_EMAIL: 'sweci@localhost',
};

export interface TestPatchCommit {
  sha: string;
  /** Files the patch adds, changes or deletes (posix paths relative to the repository). */
  files: string[];
}

/** Applies `patch` on `baseSha` in the bare repository `gitDir` and commits it; `where` names the instance. */
export async function commitTestPatch(gitDir: string, baseSha: string, patch: string, where: string, signal?: AbortSignal): Promise<TestPatchCommit> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-test-patch-'));
  try {
    const patchFile = path.join(scratch, 'test.patch');
    await fs.writeFile(patchFile, patch.endsWith('\n') ? patch : `${patch}\n`);
    const baseDate = (await gitAt(gitDir, { signal }).raw(['show', '-s', '--format=%cI', baseSha])).trim();
    const git = gitAt(gitDir, {
      signal,
      env: { ...FIXED_IDENTITY, GIT_INDEX_FILE: path.join(scratch, 'index'), GIT_AUTHOR_DATE: baseDate, GIT_COMMITTER_DATE: baseDate },
    });
    await git.raw(['read-tree', baseSha]);
    try {
      await git.raw(['apply', '--cached', '--whitespace=nowarn', patchFile]);
    } catch (err) {
      throw new UserError(
        `${where}: test_patch does not apply on base_commit ${baseSha.slice(0, 12)}: ${firstLines(errorMessage(err))}. Check the instance's test_patch and base_commit.`,
        {
          detail: errorMessage(err),
          cause: err,
        },
      );
    }
    const tree = (await git.raw(['write-tree'])).trim();
    const sha = (await git.raw(['commit-tree', tree, '-p', baseSha, '-m', 'SWE-bench test patch'])).trim();
    const files = (await git.raw(['diff', '--name-only', '--no-renames', '-z', baseSha, sha])).split('\0').filter((f) => f !== '');
    if (files.length === 0)
      throw new UserError(`${where}: test_patch changes nothing on base_commit ${baseSha.slice(0, 12)}. Check the instance's test_patch.`);
    return { sha, files };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

function firstLines(text: string): string {
  return text.trim().split('\n').slice(0, 3).join(' ').slice(0, 400);
}
