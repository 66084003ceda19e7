// What each preset writes into its agent's private home and environment: the endpoint in the
// CLI's own terms (environment, config.toml provider, opencode.json provider, settings.json auth
// type), what keeps it headless and offline-safe, and what it may do. A confined step (sandbox or
// container) accepts every action, as the reference's agents do in their container; an unconfined
// one stays restricted to editing files.
import * as path from 'node:path';
import type { AgentPresetId } from './agent-driver';
import { ENDPOINT_KEY_ENV, type Endpoint } from './endpoint/endpoint';

export interface PresetSetup {
  env: Record<string, string>;
  /** Files relative to the agent's home. */
  files: { path: string; content: string }[];
}

export interface PresetSetupContext {
  endpoint?: Endpoint;
  model?: string;
  /** The step runs in a sandbox or a container. */
  confined: boolean;
  /** The agent's working folder as it sees it. */
  cwd: string;
  /** The agent's private home as it sees it. */
  home: string;
}

/** The provider name our endpoint gets in CLIs that name providers (codex, opencode). */
export const PROVIDER_ID = 'sweci';

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const tomlString = (s: string): string => JSON.stringify(s);

/** What the preset may do in this step, for the Task view, logs and the README. */
export function presetPermissions(preset: AgentPresetId, confined: boolean): string {
  if (confined) return 'every action accepted (confined)';
  switch (preset) {
    case 'claude-code':
    case 'gemini':
    case 'qwen':
    case 'opencode':
      return 'file edits only: shell commands are denied (not confined)';
    case 'codex':
      return "codex's own workspace-write sandbox (not confined)";
    case 'iflow':
      return 'asks before acting: actions are not accepted (not confined)';
    case 'aider':
      return 'file edits only: no shell commands are suggested (not confined)';
  }
}

export function presetSetup(preset: AgentPresetId, ctx: PresetSetupContext): PresetSetup {
  const e = ctx.endpoint;
  const env: Record<string, string> = {};
  const files: PresetSetup['files'] = [];
  switch (preset) {
    case 'claude-code':
      // Root may use bypassPermissions only where claude is told it is sandboxed.
      if (ctx.confined) env.IS_SANDBOX = '1';
      // No telemetry, update checks or title calls; a failing endpoint fails the try in seconds
      // (the loop retries the try) instead of claude retrying for minutes.
      env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
      env.DISABLE_AUTOUPDATER = '1';
      env.CLAUDE_CODE_MAX_RETRIES = '2';
      if (e) {
        env.ANTHROPIC_BASE_URL = e.url;
        env.ANTHROPIC_API_KEY = e.key;
      }
      break;
    case 'codex':
      // A CODEX_HOME inherited from the user's shell would point codex back at the user's own.
      env.CODEX_HOME = path.posix.join(ctx.home, '.codex');
      if (e) {
        env[ENDPOINT_KEY_ENV] = e.key;
        files.push({
          path: '.codex/config.toml',
          content: [
            `model_provider = ${tomlString(PROVIDER_ID)}`,
            ...(ctx.model ? [`model = ${tomlString(ctx.model)}`] : []),
            'check_for_update_on_startup = false',
            '',
            '[analytics]',
            'enabled = false',
            '',
            // Without this codex reconnects to an endpoint that does not answer until it is killed.
            '[features]',
            'unbounded_connection_retries = false',
            '',
            `[model_providers.${PROVIDER_ID}]`,
            `name = "SWE-CI endpoint"`,
            `base_url = ${tomlString(e.url)}`,
            `env_key = ${tomlString(ENDPOINT_KEY_ENV)}`,
            `wire_api = "responses"`,
            // An endpoint that fails must fail the try (which the loop retries), not keep it reconnecting.
            'request_max_retries = 2',
            'stream_max_retries = 2',
            '',
          ].join('\n'),
        });
      }
      break;
    case 'gemini':
      env.GEMINI_CLI_TRUST_WORKSPACE = 'true';
      if (e) {
        env.GOOGLE_GEMINI_BASE_URL = e.url;
        env.GEMINI_API_KEY = e.key;
        files.push({
          path: '.gemini/settings.json',
          content: json({
            security: { auth: { selectedType: 'gemini-api-key' } },
            privacy: { usageStatisticsEnabled: false },
            telemetry: { enabled: false },
            general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 3 },
          }),
        });
      }
      break;
    case 'qwen':
      if (e) {
        env.OPENAI_BASE_URL = e.url;
        env.OPENAI_API_KEY = e.key;
        if (ctx.model) env.OPENAI_MODEL = ctx.model;
        files.push({
          path: '.qwen/settings.json',
          content: json({ security: { auth: { selectedType: 'openai' } }, privacy: { usageStatisticsEnabled: false } }),
        });
      }
      break;
    case 'opencode': {
      // opencode takes its folder from PWD, not from the process's working folder (--dir says it too);
      // its model list is fetched from the internet unless told not to.
      env.PWD = ctx.cwd;
      env.OPENCODE_DISABLE_MODELS_FETCH = '1';
      const permission = ctx.confined ? { edit: 'allow', bash: 'allow', webfetch: 'allow' } : { edit: 'allow', bash: 'deny', webfetch: 'deny' };
      const config: Record<string, unknown> = { $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled', permission };
      if (e) {
        env[ENDPOINT_KEY_ENV] = e.key;
        config.provider = {
          [PROVIDER_ID]: {
            npm: '@ai-sdk/openai-compatible',
            name: 'SWE-CI endpoint',
            // The key stays in the environment: the file names the variable.
            options: { baseURL: e.url, apiKey: `{env:${ENDPOINT_KEY_ENV}}` },
            models: ctx.model ? { [ctx.model]: {} } : {},
          },
        };
        if (ctx.model) config.model = `${PROVIDER_ID}/${ctx.model}`;
      }
      files.push({ path: '.config/opencode/opencode.json', content: json(config) });
      break;
    }
    case 'iflow':
      if (e) {
        files.push({
          path: '.iflow/settings.json',
          content: json({ selectedAuthType: 'openai-compatible', baseUrl: e.url, apiKey: e.key, ...(ctx.model ? { modelName: ctx.model } : {}) }),
        });
      }
      break;
    case 'aider':
      if (e) {
        env.OPENAI_API_BASE = e.url;
        env.OPENAI_API_KEY = e.key;
      }
      break;
  }
  return { env, files };
}
