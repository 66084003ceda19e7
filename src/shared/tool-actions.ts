// What a tool call did, whichever CLI made it: ran a shell command, wrote a file, edited one, or
// applied a patch. Each CLI names its tools and their arguments its own way (Claude Code's Bash,
// Write, Edit, MultiEdit; gemini's and qwen's run_shell_command, write_file, replace, edit;
// codex's shell, shell_command, exec_command, local_shell, apply_patch; opencode's bash, write,
// edit, multiedit, apply_patch). Unknown tools are no action. Browser-safe.
import type { Transcript } from './transcript-schema';

export type ToolAction =
  | { kind: 'shell'; command: string }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'edit'; path: string; edits: { old: string; new: string }[] }
  | { kind: 'patch'; paths: string[]; patch: string };

type Args = Record<string, unknown>;

const isArgs = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** The first of these keys that holds a string. */
const pick = (a: Args, ...keys: string[]): string | undefined => keys.map((k) => text(a[k])).find((v) => v !== undefined);

const SHELL_TOOLS = new Set(['Bash', 'bash', 'run_shell_command', 'shell', 'shell_command', 'exec_command', 'local_shell', 'container.exec']);
const WRITE_TOOLS = new Set(['Write', 'write_file', 'write']);
const EDIT_TOOLS = new Set(['Edit', 'edit', 'replace', 'MultiEdit', 'multiedit']);
const PATCH_TOOLS = new Set(['apply_patch', 'patch']);

/** An argv as one command line: `bash -lc <script>` is its script; other words are quoted where needed. */
function commandLine(argv: unknown[]): string {
  const words = argv.map((w) => String(w));
  if (words.length === 3 && /^(?:\/\S*\/)?(?:ba|z|da)?sh$/.test(words[0]) && /^-l?c$/.test(words[1])) return words[2];
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The paths a `*** Begin Patch` text touches (added, updated, deleted, moved to), in order. */
function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
    const p = (m[1] ?? m[2]).trim();
    if (!paths.includes(p)) paths.push(p);
  }
  return paths;
}

/** The patch in a shell command (codex's `apply_patch <<'EOF' … EOF`), when it is one. */
function patchInCommand(command: string): string | undefined {
  if (!/^\s*(?:cd\s+\S+\s*&&\s*)?apply_patch\b/.test(command)) return undefined;
  const start = command.indexOf('*** Begin Patch');
  const end = command.lastIndexOf('*** End Patch');
  return start >= 0 && end > start ? command.slice(start, end + '*** End Patch'.length) : undefined;
}

function shellAction(input: unknown): ToolAction | undefined {
  if (typeof input === 'string') return { kind: 'shell', command: input };
  if (!isArgs(input)) return undefined;
  const raw = input.command ?? input.cmd;
  if (Array.isArray(raw)) {
    // codex runs `["apply_patch", "*** Begin Patch…"]` as its patch tool.
    if (raw[0] === 'apply_patch' && typeof raw[1] === 'string') return { kind: 'patch', paths: patchPaths(raw[1]), patch: raw[1] };
    return { kind: 'shell', command: commandLine(raw) };
  }
  if (typeof raw !== 'string') return undefined;
  const patch = patchInCommand(raw);
  return patch !== undefined ? { kind: 'patch', paths: patchPaths(patch), patch } : { kind: 'shell', command: raw };
}

function edits(input: Args): { old: string; new: string }[] {
  if (Array.isArray(input.edits)) {
    return input.edits.filter(isArgs).map((e) => ({ old: pick(e, 'old_string', 'oldString') ?? '', new: pick(e, 'new_string', 'newString') ?? '' }));
  }
  const old = pick(input, 'old_string', 'oldString');
  const replacement = pick(input, 'new_string', 'newString');
  return old === undefined && replacement === undefined ? [] : [{ old: old ?? '', new: replacement ?? '' }];
}

/** What the call did, or undefined for a tool that is none of these (reads, searches, plans). */
export function toolAction(call: { name: string; input: unknown }): ToolAction | undefined {
  const { name, input } = call;
  if (SHELL_TOOLS.has(name)) return shellAction(input);
  if (PATCH_TOOLS.has(name)) {
    const patch = typeof input === 'string' ? input : isArgs(input) ? pick(input, 'input', 'patch', 'patchText') : undefined;
    return patch !== undefined && patch.includes('*** Begin Patch') ? { kind: 'patch', paths: patchPaths(patch), patch } : undefined;
  }
  if (!isArgs(input)) return undefined;
  const path = pick(input, 'file_path', 'filePath', 'absolute_path', 'path');
  if (path === undefined) return undefined;
  if (WRITE_TOOLS.has(name)) {
    const content = pick(input, 'content', 'contents');
    return content === undefined ? undefined : { kind: 'write', path, content };
  }
  if (EDIT_TOOLS.has(name)) {
    const list = edits(input);
    return list.length > 0 ? { kind: 'edit', path, edits: list } : undefined;
  }
  return undefined;
}

/** The files the try's tool calls wrote, edited or patched, each with the calls that did (in order). */
export function filesWritten(transcript: Transcript): Map<string, number[]> {
  const files = new Map<string, number[]>();
  const add = (path: string, call: number) => {
    const calls = files.get(path) ?? [];
    if (calls[calls.length - 1] !== call) calls.push(call);
    files.set(path, calls);
  };
  for (const call of transcript.calls) {
    for (const tool of call.toolCalls) {
      const action = toolAction(tool);
      if (action?.kind === 'write' || action?.kind === 'edit') add(action.path, call.call);
      else if (action?.kind === 'patch') for (const p of action.paths) add(p, call.call);
    }
  }
  return files;
}

/**
 * The calls that wrote `file` ("requirement.xml", "src/app.py" or an absolute path): a tool may
 * name it absolute or relative to its working folder, so a path matches on whole trailing parts.
 */
export function callsWriting(files: Map<string, number[]>, file: string): number[] {
  const want = file.replace(/^\.\//, '');
  const calls = new Set<number>();
  for (const [path, list] of files) {
    const p = path.replace(/^\.\//, '');
    if (p === want || p.endsWith(`/${want}`) || want.endsWith(`/${p}`)) for (const c of list) calls.add(c);
  }
  return [...calls].sort((a, b) => a - b);
}
