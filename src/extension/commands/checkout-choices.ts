// Pure choices of Check Out Task… (no vscode here, so unit tests cover them): where its folder
// dialogs start, and the counts it prints.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** "1 task", "2 tasks", "0 tasks". */
export { plural } from '../../core/util/plural';

export interface StartFolderInputs {
  /** The folder this dialog chose last time (a dataset, a repository, a parent folder). */
  last?: string;
  /** This window's first folder, if it is on disk. */
  workspaceFolder?: string;
  home?: string;
  isDir?: (dir: string) => boolean;
}

/**
 * Where a folder dialog starts: the folder chosen last time, else the workspace folder's
 * parent (a task folder's siblings are other tasks and datasets, its inside is .sweci/ state),
 * else home. Never a folder that no longer exists.
 */
export function startFolder(inputs: StartFolderInputs): string {
  const isDir = inputs.isDir ?? defaultIsDir;
  const candidates = [inputs.last, inputs.workspaceFolder && path.dirname(inputs.workspaceFolder)];
  for (const dir of candidates) if (dir && isDir(dir)) return dir;
  return inputs.home ?? os.homedir();
}

function defaultIsDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
