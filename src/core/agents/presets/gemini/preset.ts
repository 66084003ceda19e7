// Gemini CLI (`gemini`): the Gemini protocol; the prompt on stdin; JSON Lines events ending with a
// result. Logs recorded before hold one JSON object (its error on stderr).
import { geminiStream } from './events';
import { parseGeminiUsage } from './usage';
import { geminiError } from './error';
import { FILE_EDITS_ONLY, jsonFile, modelArgs, type AgentPreset, type PresetSetup } from '../agent-preset';
import { singleStartEnv } from '../single-start';

export const gemini: AgentPreset<'gemini'> = {
  id: 'gemini',
  label: 'Gemini CLI',
  executable: 'gemini',
  install: 'npm install -g @google/gemini-cli',
  protocol: 'gemini',
  apiKeys: ['GEMINI_API_KEY'],
  loginFiles: ['.gemini/settings.json', '.gemini/oauth_creds.json', '.gemini/google_accounts.json', '.gemini/installation_id', '.gemini/.env'],
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
    const env: Record<string, string> = { GEMINI_CLI_TRUST_WORKSPACE: 'true', ...singleStartEnv('GEMINI_CLI_NO_RELAUNCH') };
    const files: PresetSetup['files'] = [];
    if (ctx.endpoint) {
      env.GOOGLE_GEMINI_BASE_URL = ctx.endpoint.url;
      env.GEMINI_API_KEY = ctx.endpoint.key;
      files.push({
        path: '.gemini/settings.json',
        content: jsonFile({
          security: { auth: { selectedType: 'gemini-api-key' } },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 3 },
        }),
      });
    }
    return { env, files };
  },
  readUsage: (stdout) => parseGeminiUsage(stdout),
  readError: (stdout, stderr) => geminiError(stdout, stderr),
  events: geminiStream,
  // Its error reader takes any JSON object's `error` field: too loose for output it did not write.
  auto: { rank: 60, error: false },
};
