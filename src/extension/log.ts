// The extension's one LogOutputChannel.
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel(vscode.l10n.t('SWE-CI'), { log: true });
  return channel;
}
