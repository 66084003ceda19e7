// opencode (`opencode run`): Chat Completions through a provider of ours; the prompt as one argv
// element; JSON Lines events. With an endpoint it needs a model: it lists none by itself.
import { opencodeEvents } from './events';
import { parseOpencodeUsage } from './usage';
import { opencodeError } from './error';
import { ENDPOINT_KEY_ENV, PROVIDER_ID } from '../../wire-protocol';
import { FILE_EDITS_ONLY, jsonFile, modelArgs, promptArg, type AgentPreset } from '../agent-preset';

export const opencode: AgentPreset<'opencode'> = {
  id: 'opencode',
  label: 'opencode',
  executable: 'opencode',
  install: 'npm install -g opencode-ai',
  protocol: 'chat-completions',
  apiKeys: ['OPENAI_API_KEY'],
  loginFiles: ['.local/share/opencode/auth.json', '.config/opencode/opencode.json', '.config/opencode/opencode.jsonc'],
  // With our provider and no model it only ever asks for the model list, and every try fails with
  // "Unexpected server error".
  needsModel: true,
  unconfinedPermissions: FILE_EDITS_ONLY,
  command: (ctx) => ({
    // `run` takes the message as positional words: the prompt is one argv element. opencode takes
    // its folder from PWD unless --dir names it. With our endpoint its models are "sweci/<model>".
    args: [
      'run',
      '--format',
      'json',
      '--dir',
      ctx.cwd,
      ...modelArgs('--model', ctx.model && ctx.endpoint ? `${PROVIDER_ID}/${ctx.model}` : ctx.model),
      ...(ctx.extraArgs ?? []),
      promptArg(ctx.prompt),
    ],
    promptVia: 'argv',
  }),
  setup: (ctx) => {
    const e = ctx.endpoint;
    // opencode takes its folder from PWD, not from the process's working folder (--dir says it too);
    // its model list is fetched from the internet unless told not to.
    const env: Record<string, string> = { PWD: ctx.cwd, OPENCODE_DISABLE_MODELS_FETCH: '1' };
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
    return { env, files: [{ path: '.config/opencode/opencode.json', content: jsonFile(config) }] };
  },
  readUsage: (stdout) => parseOpencodeUsage(stdout),
  readError: (stdout) => opencodeError(stdout),
  events: opencodeEvents,
  auto: { rank: 50, error: true },
};
