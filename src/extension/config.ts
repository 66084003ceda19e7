// Typed access to the extension's settings.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readIntegritySettings, type IntegritySettings } from '../core/loop/integrity-settings';
import { readPytestSettings, type PytestSettings } from '../core/pytest/pytest-settings';
import { readRuntimeSettings, type RuntimeSettings } from '../core/runtime/runtime-settings';

export function pytestSettings(scope?: vscode.Uri): PytestSettings {
  const cfg = vscode.workspace.getConfiguration('sweci', scope);
  return readPytestSettings((key) => cfg.get(key));
}

/** Root folder for oracles: the setting, else the extension's global storage (never the workspace). */
export function oracleRoot(context: vscode.ExtensionContext): string {
  const configured = vscode.workspace.getConfiguration('sweci').get<string>('oracleDirectory')?.trim();
  return configured ? path.resolve(configured) : path.join(context.globalStorageUri.fsPath, 'oracles');
}

/** sweci.runtime and sweci.docker.*, through the core's one parser (the CLI uses it too). */
export function runtimeSettings(scope?: vscode.Uri): RuntimeSettings {
  const cfg = vscode.workspace.getConfiguration('sweci', scope);
  return readRuntimeSettings((key) => cfg.get(key));
}

/** sweci.integrity.*, through the core's parser. */
export function integritySettings(scope?: vscode.Uri): IntegritySettings {
  const cfg = vscode.workspace.getConfiguration('sweci', scope);
  return readIntegritySettings((key) => cfg.get(key));
}
