// The one place the extension reads its settings (sweci.*): each through the core's parser,
// which the CLI uses too, so a setting means the same in both.
import { readModelAccess, type ModelAccess } from '../core/agents/model-access';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SettingInspection } from './error-actions';
import type { AgentRole, AgentSettings } from '../core/agents/agent-driver';
import { readAgentSettings } from '../core/agents/agent-settings';
import { readSequenceSettings, type SequenceRunSettings } from '../core/sequence/sequence-settings';
import { readIntegritySettings, type IntegritySettings } from '../core/loop/integrity-settings';
import { readRunSettings, type RunSettings } from '../core/loop/loop-request';
import { readPytestSettings, type PytestSettings } from '../core/pytest/pytest-settings';
import { readRuntimeSettings, type RuntimeSettings } from '../core/runtime/runtime-settings';
import type { SettingReader } from '../core/util/setting-reader';
import { readHubSettings, type HubSource } from '../core/download/hub-settings';
import { readCurateSettings, type CurateSettings } from '../core/curate/curate-settings';

/** sweci.* as the core's parsers read it, for a resource (a task folder) or the window. */
function sweci(scope?: vscode.Uri): SettingReader {
  const cfg = vscode.workspace.getConfiguration('sweci', scope);
  return (key) => cfg.get(key);
}

export function pytestSettings(scope?: vscode.Uri): PytestSettings {
  return readPytestSettings(sweci(scope));
}

/** Root folder for oracles: the setting, else the extension's global storage (never the workspace). */
export function oracleRoot(context: vscode.ExtensionContext): string {
  const configured = vscode.workspace.getConfiguration('sweci').get<string>('oracleDirectory')?.trim();
  return configured ? path.resolve(configured) : path.join(context.globalStorageUri.fsPath, 'oracles');
}

/** sweci.curate.*: how the editor builds a candidate task's environment (the CLI's curate flags). */
export function curateSettings(): CurateSettings {
  return readCurateSettings(sweci());
}

/** sweci.runtime and sweci.docker.*, through the core's one parser (the CLI uses it too). */
export function runtimeSettings(scope?: vscode.Uri): RuntimeSettings {
  return readRuntimeSettings(sweci(scope));
}

/** How agents reach their model (sweci.agents.network, the gateway's bounds, prices), through the core's one parser. */
export function modelAccess(scope?: vscode.Uri): ModelAccess {
  return readModelAccess(sweci(scope));
}

/** sweci.integrity.* */
export function integritySettings(scope?: vscode.Uri): IntegritySettings {
  return readIntegritySettings(sweci(scope));
}

/** The per-role agent settings (sweci.architect.*, sweci.programmer.*). */
export function agentSettings(role: AgentRole, scope?: vscode.Uri): AgentSettings {
  return readAgentSettings(role, sweci(scope));
}

/** Everything a run reads (agents, pytest, runtime, model access, loop, integrity): the parser the CLI uses too. */
export function runSettings(scope?: vscode.Uri): RunSettings {
  return readRunSettings(sweci(scope));
}

/** sweci.sequence.* (throws a UserError naming the setting when a value is wrong). */
export function sequenceSettings(scope?: vscode.Uri): SequenceRunSettings {
  return readSequenceSettings(sweci(scope));
}

/** Where `key` (a full `sweci.…` key) is set, for opening the settings editor at the value in force. */
export function inspectSetting(key: string, scope?: vscode.Uri): SettingInspection | undefined {
  return vscode.workspace.getConfiguration(undefined, scope).inspect(key);
}

/** sweci.dataset.* (the Hub repository, revision and endpoint downloads use), through the core's parser. */
export function hubSettings(): HubSource {
  return readHubSettings(sweci(), process.env);
}
