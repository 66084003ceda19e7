// Codex CLI (`codex exec`): OpenAI Responses; the prompt on stdin; JSON Lines events.
import { codexEvents } from './events';
import * as path from 'node:path';
import { parseCodexUsage } from './usage';
import { codexError } from './error';
import { ENDPOINT_KEY_ENV, PROVIDER_ID } from '../../wire-protocol';
import { modelArgs, tomlString, type AgentPreset, type PresetSetup } from '../agent-preset';

export const codex: AgentPreset<'codex'> = {
  id: 'codex',
  label: 'Codex CLI',
  executable: 'codex',
  install: 'npm install -g @openai/codex',
  protocol: 'openai-responses',
  apiKeys: ['OPENAI_API_KEY'],
  loginFiles: ['.codex/auth.json', '.codex/config.toml'],
  unconfinedPermissions: "codex's own workspace-write sandbox (not confined)",
  command: (ctx) => ({
    // `-` reads the prompt from stdin and stays last. app/ is not a git repository, hence
    // --skip-git-repo-check. Confined, codex's own sandbox is not needed (ours holds it);
    // otherwise workspace-write lets it edit under its working directory only.
    args: [
      'exec',
      '--json',
      '--skip-git-repo-check',
      ...(ctx.confined ? ['--dangerously-bypass-approvals-and-sandbox'] : ['--sandbox', 'workspace-write']),
      ...modelArgs('--model', ctx.model),
      ...(ctx.extraArgs ?? []),
      '-',
    ],
    stdin: ctx.prompt,
    promptVia: 'stdin',
  }),
  setup: (ctx) => {
    const e = ctx.endpoint;
    // A CODEX_HOME inherited from the user's shell would point codex back at the user's own.
    const env: Record<string, string> = { CODEX_HOME: path.posix.join(ctx.home, '.codex') };
    const files: PresetSetup['files'] = [];
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
    return { env, files };
  },
  readUsage: (stdout) => parseCodexUsage(stdout),
  readError: (stdout) => codexError(stdout),
  events: codexEvents,
  auto: { rank: 40, error: true },
};
