// A file or folder dialog for the commands that ask for one: it starts somewhere sensible, and
// when the choice is not what is needed it says why and asks again instead of failing.
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import { errorMessage } from '../../core/util/errors';
import { log } from '../log';
import { startFolder } from './checkout-choices';

/**
 * A folder dialog that starts somewhere sensible (see startFolder) and, when the folder is
 * not what is needed, says why and asks again instead of failing the command. The folder
 * that passed is remembered under `lastKey` for the next time.
 */
export async function pickFolder<T>(
  context: vscode.ExtensionContext,
  opts: {
    title: string;
    openLabel: string;
    lastKey: string;
    check: (dir: string) => Promise<T>;
    /** Files instead of folders (filters: the dialog's file types). */
    files?: Record<string, string[]>;
  },
): Promise<{ dir: string; value: T } | undefined> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  // A file's dialog starts in the folder of the file chosen last.
  const folderOf = (p: string) => (opts.files ? path.dirname(p) : p);
  const last = context.globalState.get<string>(opts.lastKey);
  let start = startFolder({
    last: last && folderOf(last),
    workspaceFolder: workspace?.scheme === 'file' ? workspace.fsPath : undefined,
  });
  let title = opts.title;
  for (;;) {
    const picked = await vscode.window.showOpenDialog({
      title,
      canSelectFolders: !opts.files,
      canSelectFiles: !!opts.files,
      ...(opts.files ? { filters: opts.files } : {}),
      defaultUri: vscode.Uri.file(start),
      openLabel: opts.openLabel,
    });
    if (!picked?.[0]) return undefined;
    const dir = picked[0].fsPath;
    try {
      const value = await opts.check(dir);
      await context.globalState.update(opts.lastKey, dir);
      return { dir, value };
    } catch (err) {
      const why = errorMessage(err);
      log().warn(`${opts.title}: ${why}`);
      void messages.showWarningMessage(why);
      // Again, from the same place, with the reason in the dialog's title.
      title = `${why} ${opts.title}`;
      start = folderOf(dir);
    }
  }
}
