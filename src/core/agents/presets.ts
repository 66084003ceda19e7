// The argv of each CLI agent preset (DESIGN §5). No shell ever runs these: the prompt goes in
// on stdin, as a file path, or as one argv element. Flags are from each CLI's documentation
// for non-interactive use; extraArgs come after ours so a user can add to or override them.
import * as path from 'node:path';
import type { AgentPresetId } from './agent-driver';
import type { AgentCommand, CommandContext } from './agent-command';
import type { UsageFormat } from './usage/parse-usage';

export interface PresetInfo {
  id: AgentPresetId;
  label: string;
  /** Executable looked up on PATH unless the settings name another. */
  executable: string;
  /** How to install it, for the "not found" message. */
  install: string;
  usageFormat: UsageFormat;
}

export const PRESET_INFO: Readonly<Record<AgentPresetId, PresetInfo>> = {
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    executable: 'claude',
    install: 'npm install -g @anthropic-ai/claude-code',
    usageFormat: 'claude-code',
  },
  codex: { id: 'codex', label: 'Codex CLI', executable: 'codex', install: 'npm install -g @openai/codex', usageFormat: 'codex' },
  gemini: { id: 'gemini', label: 'Gemini CLI', executable: 'gemini', install: 'npm install -g @google/gemini-cli', usageFormat: 'gemini' },
  qwen: { id: 'qwen', label: 'Qwen Code', executable: 'qwen', install: 'npm install -g @qwen-code/qwen-code', usageFormat: 'qwen' },
  opencode: { id: 'opencode', label: 'opencode', executable: 'opencode', install: 'npm install -g opencode-ai', usageFormat: 'opencode' },
  iflow: { id: 'iflow', label: 'iFlow CLI', executable: 'iflow', install: 'npm install -g @iflow-ai/iflow-cli', usageFormat: 'iflow' },
  aider: { id: 'aider', label: 'Aider', executable: 'aider', install: 'python -m pip install aider-install && aider-install', usageFormat: 'aider' },
};

const model = (flag: string, m: string | undefined): string[] => (m ? [flag, m] : []);

/** A prompt passed as one argv element must not be taken for an option. */
function promptArg(prompt: string): string {
  return prompt.startsWith('-') ? ` ${prompt}` : prompt;
}

export function buildPresetCommand(preset: AgentPresetId, ctx: CommandContext, executable?: string): AgentCommand {
  const info = PRESET_INFO[preset];
  const command = executable || info.executable;
  const extra = [...(ctx.extraArgs ?? [])];
  const m = ctx.model?.trim() || undefined;
  const base = { command, usageFormat: info.usageFormat };
  switch (preset) {
    case 'claude-code':
      // -p with no prompt argument reads the prompt from stdin. acceptEdits lets it write files
      // in its working directory without asking; other tools it would need to ask for are denied.
      return {
        ...base,
        args: ['-p', '--output-format', 'json', '--permission-mode', 'acceptEdits', ...model('--model', m), ...extra],
        stdin: ctx.prompt,
        promptVia: 'stdin',
      };
    case 'codex':
      // `-` reads the prompt from stdin and stays last. app/ is not a git repository, hence
      // --skip-git-repo-check; workspace-write lets it edit under its working directory.
      return {
        ...base,
        args: ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', ...model('--model', m), ...extra, '-'],
        stdin: ctx.prompt,
        promptVia: 'stdin',
      };
    case 'gemini':
    case 'qwen':
      // With stdin not a terminal both run headless and take the prompt from stdin.
      return {
        ...base,
        args: ['--output-format', 'json', '--approval-mode', 'yolo', ...model('--model', m), ...extra],
        stdin: ctx.prompt,
        promptVia: 'stdin',
      };
    case 'opencode':
      // `run` takes the message as positional words: the prompt is one argv element.
      return {
        ...base,
        args: ['run', '--format', 'json', ...model('--model', m), ...extra, promptArg(ctx.prompt)],
        promptVia: 'argv',
      };
    case 'iflow':
      // As the reference harness runs it: -y (accept all actions), -p <prompt text>.
      return {
        ...base,
        args: ['-y', ...model('--model', m), ...extra, '-p', promptArg(ctx.prompt)],
        promptVia: 'argv',
      };
    case 'aider': {
      // app/ is not a git repository and aider must not create one there (--no-git); its
      // history files go next to the prompt file, not into app/.
      const dir = path.dirname(ctx.promptFile);
      return {
        ...base,
        args: [
          '--message-file',
          ctx.promptFile,
          '--yes-always',
          '--no-auto-commits',
          '--no-git',
          '--no-check-update',
          '--no-pretty',
          '--chat-history-file',
          path.join(dir, 'aider.chat.history.md'),
          '--input-history-file',
          path.join(dir, 'aider.input.history'),
          ...model('--model', m),
          ...extra,
        ],
        promptVia: 'file',
      };
    }
  }
}
