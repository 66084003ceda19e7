// iFlow CLI (`iflow -p`): Chat Completions; the prompt as one argv element; usage in an
// `<Execution Info>` block on stderr. It prints no structured error.
import { parseIflowUsage } from './usage';
import { jsonFile, modelArgs, promptArg, type AgentPreset, type PresetSetup } from '../agent-preset';

export const iflow: AgentPreset<'iflow'> = {
  id: 'iflow',
  label: 'iFlow CLI',
  executable: 'iflow',
  install: 'npm install -g @iflow-ai/iflow-cli',
  protocol: 'chat-completions',
  apiKeys: ['IFLOW_API_KEY'],
  loginFiles: ['.iflow/settings.json', '.iflow/oauth_creds.json', '.iflow/iflow_accounts.json'],
  unconfinedPermissions: 'asks before acting: actions are not accepted (not confined)',
  command: (ctx) => ({
    // As the reference harness runs it when confined: -y (accept all actions), -p <prompt text>.
    args: [...(ctx.confined ? ['-y'] : []), ...modelArgs('--model', ctx.model), ...(ctx.extraArgs ?? []), '-p', promptArg(ctx.prompt)],
    promptVia: 'argv',
  }),
  setup: (ctx) => {
    const e = ctx.endpoint;
    const files: PresetSetup['files'] = [];
    if (e) {
      files.push({
        path: '.iflow/settings.json',
        content: jsonFile({ selectedAuthType: 'openai-compatible', baseUrl: e.url, apiKey: e.key, ...(ctx.model ? { modelName: ctx.model } : {}) }),
      });
    }
    return { env: {}, files };
  },
  readUsage: (stdout, stderr) => parseIflowUsage(stderr, stdout),
  auto: { rank: 10, error: false },
};
