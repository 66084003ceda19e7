// Qwen Code (`qwen`, a fork of Gemini CLI): Chat Completions; the prompt on stdin; Claude-shaped
// JSON Lines messages ending with a result (logs recorded before: one JSON array of them).
import { qwenStream } from './events';
import { parseQwenUsage } from './usage';
import { qwenError } from './error';
import { FILE_EDITS_ONLY, jsonFile, modelArgs, type AgentPreset, type PresetSetup } from '../agent-preset';
import { singleStartEnv } from '../single-start';

export const qwen: AgentPreset<'qwen'> = {
  id: 'qwen',
  label: 'Qwen Code',
  executable: 'qwen',
  install: 'npm install -g @qwen-code/qwen-code',
  protocol: 'chat-completions',
  apiKeys: ['DASHSCOPE_API_KEY'],
  loginFiles: ['.qwen/settings.json', '.qwen/oauth_creds.json', '.qwen/.env'],
  unconfinedPermissions: FILE_EDITS_ONLY,
  command: (ctx) => ({
    // With stdin not a terminal it runs headless and takes the prompt from stdin. yolo accepts
    // every action; auto_edit only file edits. stream-json prints each message and tool call
    // as it happens (JSON Lines ending with a result): the try's log shows what the agent did.
    args: [
      '--output-format',
      'stream-json',
      '--approval-mode',
      ctx.confined ? 'yolo' : 'auto_edit',
      ...modelArgs('--model', ctx.model),
      ...(ctx.extraArgs ?? []),
    ],
    stdin: ctx.prompt,
    promptVia: 'stdin',
  }),
  setup: (ctx) => {
    const env: Record<string, string> = singleStartEnv('QWEN_CODE_NO_RELAUNCH');
    const files: PresetSetup['files'] = [];
    if (ctx.endpoint) {
      env.OPENAI_BASE_URL = ctx.endpoint.url;
      env.OPENAI_API_KEY = ctx.endpoint.key;
      if (ctx.model) env.OPENAI_MODEL = ctx.model;
      files.push({
        path: '.qwen/settings.json',
        content: jsonFile({ security: { auth: { selectedType: 'openai' } }, privacy: { usageStatisticsEnabled: false } }),
      });
    }
    return { env, files };
  },
  readUsage: (stdout) => parseQwenUsage(stdout),
  readError: (stdout) => qwenError(stdout),
  events: qwenStream,
};
