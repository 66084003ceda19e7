// One way to show a failure: a clear message to the user, the whole story in the log, and
// when a setting is the fix, a button that opens the settings UI at that key.
import * as vscode from 'vscode';
import { isAbortError, UserError, errorMessage } from '../core/util/errors';
import { inspectSetting } from './config';
import { errorButtons, OPEN_SETTINGS, settingOf, settingsCommandFor } from './error-actions';
import { log } from './log';
import * as messages from './messages';

export function showError(what: string, err: unknown): void {
  if (isAbortError(err)) {
    log().info(`${what}: cancelled`);
    return;
  }
  const message = errorMessage(err);
  if (err instanceof UserError) {
    log().error(`${what}: ${message}${err.detail ? `\n${err.detail}` : ''}`);
  } else {
    log().error(`${what}: ${err instanceof Error ? (err.stack ?? message) : message}`);
  }
  const setting = settingOf(err);
  void messages.showErrorMessage(`${what}: ${message}`, ...errorButtons(err)).then((choice) => {
    if (choice === OPEN_SETTINGS && setting) void vscode.commands.executeCommand(settingsCommandFor(inspectSetting(setting)), { query: setting });
    else if (choice) log().show();
  });
}
