// Who plays each role, as configured (sweci.architect.*, sweci.programmer.*): one parser for
// the extension's settings, a CLI config file and the CLI's flags.
import { readChoice, readCount, readFlag, readStringMap, readText, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { UserError } from '../util/errors';
import { AGENT_PRESETS, type AgentRole, type AgentSettings } from './agent-driver';
import { parseBaseUrl } from './endpoint/endpoint';
import { SecretMask, secretsInSetting } from '../util/secret-mask';

export const AGENT_CHOICES = [...AGENT_PRESETS, 'custom', 'human'] as const;
export type AgentChoice = (typeof AGENT_CHOICES)[number];

export const DEFAULT_AGENT_TIMEOUT_SEC = 3600;
export const DEFAULT_AGENT_MAX_TRIES = 10;

function readArgs(read: SettingReader, label: SettingLabel, key: string): string[] {
  const v = read(key);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((a) => typeof a !== 'string')) {
    throw new UserError(`${label(key)} must be a list of text arguments, e.g. ["--verbose"], not ${JSON.stringify(v)}.`, { setting: key });
  }
  return v as string[];
}

/** sweci.<role>.apiKeys: variable names, each a valid one. */
function apiKeysOf(read: SettingReader, label: SettingLabel, key: string): { apiKeys?: string[] } {
  const names = readArgs(read, label, key);
  const bad = names.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad !== undefined)
    throw new UserError(`${label(key)} must list environment variable names, e.g. ["OPENAI_API_KEY"], not ${JSON.stringify(bad)}.`, { setting: key });
  return names.length ? { apiKeys: names } : {};
}

/** The role's settings; `human` when the user plays it. Throws a UserError naming the setting at fault. */
export function readAgentSettings(role: AgentRole, read: SettingReader, label: SettingLabel = settingName): AgentSettings {
  const key = (k: string) => `${role}.${k}`;
  const choice = readChoice(read, label, key('agent'), AGENT_CHOICES);
  if (choice === 'human') return { kind: 'human' };
  const model = readText(read, label, key('model'), '');
  // The role's own endpoint wins over the one every agent shares.
  const roleUrl = parseBaseUrl(readText(read, label, key('baseUrl'), ''), label, key('baseUrl'));
  const baseUrl = roleUrl || parseBaseUrl(readText(read, label, 'agents.baseUrl', ''), label, 'agents.baseUrl');
  const template = readText(read, label, key('promptTemplateFile'), '');
  const common = {
    ...(model ? { model } : {}),
    ...(baseUrl ? { baseUrl, baseUrlFrom: roleUrl ? key('baseUrl') : 'agents.baseUrl' } : {}),
    extraArgs: readArgs(read, label, key('extraArgs')),
    env: readStringMap(read, label, key('env')),
    ...apiKeysOf(read, label, key('apiKeys')),
    timeoutSec: readCount(read, label, key('timeoutSeconds'), DEFAULT_AGENT_TIMEOUT_SEC, 'seconds', 1),
    maxTries: Math.floor(readCount(read, label, key('maxTries'), DEFAULT_AGENT_MAX_TRIES, 'tries', 1)),
    ...(template ? { promptTemplateFile: template } : {}),
    runIn: readChoice(read, label, key('runIn'), ['host', 'container'] as const),
    ...(role === 'architect' && readFlag(read, label, key('problemStatement'), false) ? { problemStatement: true } : {}),
  };
  if (choice === 'custom') {
    const command = readText(read, label, key('customCommand'), '');
    if (!command) {
      throw new UserError(
        `${label(key('agent'))} is "custom" but ${label(key('customCommand'))} is empty. Set the command line to run, e.g. "my-agent --prompt-file {promptFile}".`,
        { setting: key('customCommand') },
      );
    }
    return { kind: 'custom', command, promptVia: readChoice(read, label, key('promptVia'), ['stdin', 'file'] as const), ...common };
  }
  return { kind: 'preset', preset: choice, ...common };
}

/**
 * A short name for logs, records and the status bar, e.g. "claude-code (opus)". A model name
 * holding a secret of the settings is masked; the caller masks the keys it holds besides.
 */
export function agentLabel(settings: AgentSettings): string {
  if (settings.kind === 'human') return 'human';
  const name = settings.kind === 'preset' ? settings.preset : 'custom';
  return settings.model ? new SecretMask(agentSecrets(settings)).mask(`${name} (${settings.model})`) : name;
}

/**
 * The secrets an agent's settings hold: its env's values (keys set there) and what is written
 * into its command line, extra arguments or model name the ways a secret is (secret-mask.ts).
 */
export function agentSecrets(settings: AgentSettings): string[] {
  if (settings.kind === 'human') return [];
  return [
    ...Object.values(settings.env ?? {}),
    ...secretsInSetting(settings.kind === 'custom' ? settings.command : settings.executable),
    ...secretsInSetting(settings.extraArgs),
    ...secretsInSetting(settings.model),
  ];
}

/** A run name hint from who plays the roles, e.g. "claude-code" or "codex-aider". */
export function agentHint(architect: AgentSettings, programmer: AgentSettings): string {
  const a = agentLabel(architect);
  const p = agentLabel(programmer);
  return a === p ? a : `${a}-${p}`;
}
