// Claude Code (`claude -p`): Anthropic Messages; the prompt on stdin; JSON Lines events (stream-json)
// ending with one result. Logs recorded before hold that result alone (`--output-format json`).
import { claudeStream } from './events';
import { parseClaudeCodeUsage } from './usage';
import { claudeCodeError } from './error';
import { FILE_EDITS_ONLY, modelArgs, type AgentPreset } from '../agent-preset';

export const claudeCode: AgentPreset<'claude-code'> = {
  id: 'claude-code',
  label: 'Claude Code',
  executable: 'claude',
  install: 'npm install -g @anthropic-ai/claude-code',
  protocol: 'anthropic-messages',
  apiKeys: ['ANTHROPIC_API_KEY'],
  loginFiles: ['.claude.json', '.claude/.credentials.json', '.claude/settings.json'],
  unconfinedPermissions: FILE_EDITS_ONLY,
  command: (ctx) => ({
    // -p with no prompt argument reads the prompt from stdin. Confined, every tool is allowed
    // (pytest included); otherwise acceptEdits: it may write files, and shell commands are denied.
    // Only the user settings of its private home are loaded: never a .claude/ folder (hooks,
    // permissions) that a role planted in the project. stream-json (which -p wants --verbose
    // for) prints every message as it comes: the try's log shows what the agent did, turn by turn.
    args: [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      ctx.confined ? 'bypassPermissions' : 'acceptEdits',
      '--setting-sources',
      'user',
      ...modelArgs('--model', ctx.model),
      ...(ctx.extraArgs ?? []),
    ],
    stdin: ctx.prompt,
    promptVia: 'stdin',
  }),
  setup: (ctx) => {
    const env: Record<string, string> = {};
    // Root may use bypassPermissions only where claude is told it is sandboxed.
    if (ctx.confined) env.IS_SANDBOX = '1';
    // No telemetry, update checks or title calls; a failing endpoint fails the try in seconds
    // (the loop retries the try) instead of claude retrying for minutes.
    env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
    env.DISABLE_AUTOUPDATER = '1';
    env.CLAUDE_CODE_MAX_RETRIES = '2';
    if (ctx.endpoint) {
      env.ANTHROPIC_BASE_URL = ctx.endpoint.url;
      env.ANTHROPIC_API_KEY = ctx.endpoint.key;
    }
    return { env, files: [] };
  },
  readUsage: (stdout) => parseClaudeCodeUsage(stdout),
  readError: (stdout) => claudeCodeError(stdout),
  events: claudeStream,
  auto: { rank: 30, error: true },
};
