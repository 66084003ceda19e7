// Aider (`aider --message-file`): Chat Completions; the prompt by file path; a "Tokens:" line per
// model reply. It prints no structured error.
import * as path from 'node:path';
import { parseAiderUsage } from './usage';
import { modelArgs, type AgentPreset } from '../agent-preset';

export const aider: AgentPreset<'aider'> = {
  id: 'aider',
  label: 'Aider',
  executable: 'aider',
  install: 'python -m pip install aider-install && aider-install',
  protocol: 'chat-completions',
  apiKeys: ['OPENAI_API_KEY'],
  loginFiles: ['.aider.conf.yml', '.aider.model.settings.yml', '.aider.model.metadata.json'],
  unconfinedPermissions: 'file edits only: no shell commands are suggested (not confined)',
  command: (ctx) => {
    // app/ is not a git repository and aider must not create one there (--no-git); its
    // history files go next to the prompt file, not into app/. Through an OpenAI-compatible
    // endpoint its models are "openai/<model>".
    const dir = path.dirname(ctx.promptFile);
    const m = ctx.model;
    return {
      args: [
        '--message-file',
        ctx.promptFile,
        '--yes-always',
        ...(ctx.confined ? [] : ['--no-suggest-shell-commands']),
        '--no-auto-commits',
        '--no-git',
        '--no-check-update',
        '--no-pretty',
        '--chat-history-file',
        path.join(dir, 'aider.chat.history.md'),
        '--input-history-file',
        path.join(dir, 'aider.input.history'),
        ...modelArgs('--model', m && ctx.endpoint && !m.includes('/') ? `openai/${m}` : m),
        ...(ctx.extraArgs ?? []),
      ],
      promptVia: 'file',
    };
  },
  setup: (ctx) => {
    const env: Record<string, string> = {};
    if (ctx.endpoint) {
      env.OPENAI_API_BASE = ctx.endpoint.url;
      env.OPENAI_API_KEY = ctx.endpoint.key;
    }
    return { env, files: [] };
  },
  readUsage: (stdout) => parseAiderUsage(stdout),
  auto: { rank: 20, error: false },
};
