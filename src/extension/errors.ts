// One way to show a failure: a clear message to the user, the whole story in the log.
import * as vscode from 'vscode';
import { isAbortError, UserError } from '../core/util/errors';
import { log } from './log';

export function showError(what: string, err: unknown): void {
  if (isAbortError(err)) {
    log().info(`${what}: cancelled`);
    return;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof UserError) {
    log().error(`${what}: ${message}${err.detail ? `\n${err.detail}` : ''}`);
  } else {
    log().error(`${what}: ${err instanceof Error ? (err.stack ?? message) : message}`);
  }
  void vscode.window.showErrorMessage(`${what}: ${message}`, 'Show Log').then((choice) => {
    if (choice) log().show();
  });
}
