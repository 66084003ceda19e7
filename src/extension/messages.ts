// Every message the extension shows goes through here, so the integration tests can read
// what a person would have seen (SweciApi.lastMessages) without scraping toasts.
import * as vscode from 'vscode';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface ShownMessage {
  level: MessageLevel;
  text: string;
}

const KEEP = 50;
const shown: ShownMessage[] = [];

function record(level: MessageLevel, text: string): void {
  shown.push({ level, text });
  if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
}

/** The most recent messages, oldest first. */
export function lastMessages(): ShownMessage[] {
  return [...shown];
}

export function showInformationMessage<T extends string>(text: string, ...items: T[]): Thenable<T | undefined> {
  record('info', text);
  return vscode.window.showInformationMessage(text, ...items);
}

export function showWarningMessage<T extends string>(text: string, ...items: T[]): Thenable<T | undefined> {
  record('warning', text);
  return vscode.window.showWarningMessage(text, ...items);
}

export function showErrorMessage<T extends string>(text: string, ...items: T[]): Thenable<T | undefined> {
  record('error', text);
  return vscode.window.showErrorMessage(text, ...items);
}
