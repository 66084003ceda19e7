// The argv of each CLI agent preset. No shell ever runs these: the prompt goes in
// on stdin, as a file path, or as one argv element. Flags are from each CLI's documentation
// for non-interactive use; extraArgs come after ours so a user can add to or override them.
import * as path from 'node:path';
import type { AgentPresetId } from './agent-driver';
import type { AgentCommand, CommandContext } from './agent-command';
import type { UsageFormat } from './usage/parse-usage';
import { PROVIDER_ID } from './preset-setup';

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
  const confined = ctx.confined === true;
  const base = { command, usageFormat: info.usageFormat };
  switch (preset) {
    case 'claude-code':
      // -p with no prompt argument reads the prompt from stdin. Confined, every tool is allowed
      // (pytest included); otherwise acceptEdits: it may write files, and shell commands are denied.
      // Only the user settings of its private home are loaded: never a .claude/ folder (hooks,
      // permissions) that a role planted in the project.
      return {
        ...base,
        args: [
          '-p',
          '--output-format',
          'json',
          '--permission-mode',
          confined ? 'bypassPermissions' : 'acceptEdits',
          '--setting-sources',
          'user',
          ...model('--model', m),
          ...extra,
        ],
        stdin: ctx.prompt,
        promptVia: 'stdin',
      };
    case 'codex':
      // `-` reads the prompt from stdin and stays last. app/ is not a git repository, hence
      // --skip-git-repo-check. Confined, codex's own sandbox is not needed (ours holds it);
      // otherwise workspace-write lets it edit under its working directory only.
      return {
        ...base,
        args: [
          'exec',
          '--json',
          '--skip-git-repo-check',
          ...(confined ? ['--dangerously-bypass-approvals-and-sandbox'] : ['--sandbox', 'workspace-write']),
          ...model('--model', m),
          ...extra,
          '-',
        ],
        stdin: ctx.prompt,
        promptVia: 'stdin',
      };
    case 'gemini':
    case 'qwen':
      // With stdin not a terminal both run headless and take the prompt from stdin. yolo accepts
      // every action; auto_edit only file edits.
      return {
        ...base,
        args: ['--output-format', 'json', '--approval-mode', confined ? 'yolo' : 'auto_edit', ...model('--model', m), ...extra],
        stdin: ctx.prompt,
        promptVia: 'stdin',
      };
    case 'opencode':
      // `run` takes the message as positional words: the prompt is one argv element. opencode takes
      // its folder from PWD unless --dir names it. With our endpoint its models are "sweci/<model>".
      return {
        ...base,
        args: [
          'run',
          '--format',
          'json',
          '--dir',
          ctx.cwd,
          ...model('--model', m && ctx.endpoint ? `${PROVIDER_ID}/${m}` : m),
          ...extra,
          promptArg(ctx.prompt),
        ],
        promptVia: 'argv',
      };
    case 'iflow':
      // As the reference harness runs it when confined: -y (accept all actions), -p <prompt text>.
      return {
        ...base,
        args: [...(confined ? ['-y'] : []), ...model('--model', m), ...extra, '-p', promptArg(ctx.prompt)],
        promptVia: 'argv',
      };
    case 'aider': {
      // app/ is not a git repository and aider must not create one there (--no-git); its
      // history files go next to the prompt file, not into app/. Through an OpenAI-compatible
      // endpoint its models are "openai/<model>".
      const dir = path.dirname(ctx.promptFile);
      return {
        ...base,
        args: [
          '--message-file',
          ctx.promptFile,
          '--yes-always',
          ...(confined ? [] : ['--no-suggest-shell-commands']),
          '--no-auto-commits',
          '--no-git',
          '--no-check-update',
          '--no-pretty',
          '--chat-history-file',
          path.join(dir, 'aider.chat.history.md'),
          '--input-history-file',
          path.join(dir, 'aider.input.history'),
          ...model('--model', m && ctx.endpoint && !m.includes('/') ? `openai/${m}` : m),
          ...extra,
        ],
        promptVia: 'file',
      };
    }
  }
}
