// What a brain asks for ("write this file", "run this command") turned into a call of a tool
// the CLI really offered, with that tool's own argument names. One row per tool we know.
import type { Conversation, ToolCall, ToolSpec } from './conversation';

let nextId = 1;
/** A fresh tool-call id (some CLIs want a prefix: see the adapters). */
export function callId(prefix = 'call_'): string {
  return `${prefix}sweci${String(nextId++).padStart(6, '0')}`;
}

interface WriteTool {
  name: string;
  args: (file: string, content: string) => Record<string, unknown>;
}
interface ShellTool {
  name: string;
  args: (command: string, cwd: string | undefined) => Record<string, unknown> | string;
}

/** Write tools by name (claude; gemini and qwen; opencode). */
const WRITE_TOOLS: readonly WriteTool[] = [
  { name: 'Write', args: (file_path, content) => ({ file_path, content }) },
  { name: 'write_file', args: (file_path, content) => ({ file_path, content }) },
  { name: 'write', args: (filePath, content) => ({ filePath, content }) },
];

/** codex's code-mode `exec` input: JavaScript that runs `command` through the nested exec_command and returns its output as text. */
function codexExecScript(cmd: string, cwd: string | undefined): string {
  const args = JSON.stringify({ cmd, yield_time_ms: 30000, ...(cwd ? { workdir: cwd } : {}) });
  return `const r = await tools.exec_command(${args});\ntext(typeof r === 'string' ? r : (r?.output ?? JSON.stringify(r)));\n`;
}

/** Shell tools by name (claude; gemini and qwen; opencode; codex's function and custom tools). */
const SHELL_TOOLS: readonly ShellTool[] = [
  { name: 'Bash', args: (command) => ({ command, description: 'run a command' }) },
  // gemini 0.61 reads `dir_path` (and ignores `directory`); qwen reads `directory`. Neither schema forbids the other's key.
  { name: 'run_shell_command', args: (command, cwd) => ({ command, ...(cwd ? { dir_path: cwd, directory: cwd } : {}) }) },
  { name: 'bash', args: (command, cwd) => ({ command, ...(cwd ? { workdir: cwd } : {}) }) },
  // codex: unified exec (models unknown to it, gpt-5.5); yield_time_ms at its maximum so a slow command still returns its output.
  { name: 'exec_command', args: (cmd, cwd) => ({ cmd, yield_time_ms: 30000, ...(cwd ? { workdir: cwd } : {}) }) },
  // older codex builds without unified exec: shell_type "shell_command" (a string) or "default" (`shell`, an argv); 0.169 always offers exec_command.
  { name: 'shell_command', args: (command, cwd) => ({ command, ...(cwd ? { workdir: cwd } : {}) }) },
  { name: 'shell', args: (command, cwd) => ({ command: ['bash', '-lc', command], ...(cwd ? { workdir: cwd } : {}) }) },
  // codex code mode (gpt-5.6-*, gpt-6-*): one custom tool `exec` whose input is JavaScript calling the nested tools.
  { name: 'exec', args: (cmd, cwd) => codexExecScript(cmd, cwd) },
];

const offered = (c: Conversation, name: string): ToolSpec | undefined => c.tools.find((t) => t.name === name);

/** A call that runs `command` (in `cwd` where the tool takes one), or undefined when no shell tool is offered. */
export function shellCall(c: Conversation, command: string, cwd?: string): ToolCall | undefined {
  for (const t of SHELL_TOOLS) {
    if (offered(c, t.name)) return { id: callId(), name: t.name, args: t.args(command, cwd) };
  }
  return undefined;
}

/** A call that writes `file` (absolute), through a write tool, else through the shell. */
export function writeCall(c: Conversation, file: string, content: string): ToolCall | undefined {
  for (const t of WRITE_TOOLS) {
    if (offered(c, t.name)) return { id: callId(), name: t.name, args: t.args(file, content) };
  }
  const b64 = Buffer.from(content, 'utf8').toString('base64');
  return shellCall(c, `python3 -c "import base64,sys; open(sys.argv[1],'wb').write(base64.b64decode(sys.argv[2]))" '${file}' '${b64}'`);
}

/** Read tools by name (claude; gemini and qwen; opencode): some CLIs refuse to overwrite a file the model has not read. */
const READ_TOOLS = ['Read', 'read_file', 'read'];
const PATH_PARAMS = ['file_path', 'absolute_path', 'filePath', 'path'];

/** A call that reads `file` (absolute) through the CLI's read tool, naming the path as the tool's schema does; undefined when none is offered. */
export function readCall(c: Conversation, file: string): ToolCall | undefined {
  for (const name of READ_TOOLS) {
    const tool = offered(c, name);
    if (!tool) continue;
    const props = (tool.parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    const param = PATH_PARAMS.find((p) => p in props) ?? 'file_path';
    return { id: callId(), name, args: { [param]: file } };
  }
  return undefined;
}
