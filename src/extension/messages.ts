// Every message the extension shows goes through here. One observer may see each of them (the
// test bundle, test/extension/extension.ts, keeps them, so integration tests read what a person
// would have seen without scraping toasts); in normal use there is none and nothing is kept.
import * as vscode from 'vscode';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface ShownMessage {
  level: MessageLevel;
  text: string;
}

let observer: ((message: ShownMessage) => void) | undefined;

/** Sets (or, with undefined, removes) the one observer of shown messages. */
export function observeMessages(next: ((message: ShownMessage) => void) | undefined): void {
  observer = next;
}

export function showInformationMessage<T extends string>(text: string, ...items: T[]): Thenable<T | undefined> {
  observer?.({ level: 'info', text });
  return vscode.window.showInformationMessage(text, ...items);
}

export function showWarningMessage<T extends string>(text: string, ...items: T[]): Thenable<T | undefined> {
  observer?.({ level: 'warning', text });
  return vscode.window.showWarningMessage(text, ...items);
}

export function showErrorMessage<T extends string>(text: string, ...items: T[]): Thenable<T | undefined> {
  observer?.({ level: 'error', text });
  return vscode.window.showErrorMessage(text, ...items);
}
