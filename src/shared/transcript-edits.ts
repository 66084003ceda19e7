// The files a try's tool calls wrote, each write with the file before and after it, as far as
// the transcript tells: a write's "before" is the file as this try last wrote it, or as it last
// read it whole (Claude Code's Read, whose result numbers every line), empty when neither; an
// edit applies to that, or, when the try never saw the whole file, is shown as its old and new
// strings. The Transcript panel draws these diffs and the host opens the same ones in
// the diff editor, both from the transcript the host sent (a message names a call and a tool
// index, never a path). Browser-safe.
import type { Transcript } from './transcript-schema';
import { toolAction } from './tool-actions';

export interface FileChange {
  call: number;
  /** Index into the call's toolCalls. */
  tool: number;
  kind: 'write' | 'edit' | 'patch';
  /** The path as the agent named it (a patch: its paths, joined). */
  path: string;
  before: string;
  after: string;
  /** false: before and after are only the changed parts (an edit of a file this try never wrote whole, a patch). */
  whole: boolean;
  /** Where `before` comes from, when the try had seen the file: its own last write, or its read of it. */
  against?: 'write' | 'read';
}

type ToolResult = Extract<Transcript['calls'][number]['input'][number], { kind: 'tool-result' }>;

/** Claude Code's Read of a whole file (no offset or limit): the path it read. */
function wholeRead(name: string, input: unknown): string | undefined {
  if (name !== 'Read' || typeof input !== 'object' || input === null) return undefined;
  const a = input as Record<string, unknown>;
  return typeof a.file_path === 'string' && a.offset === undefined && a.limit === undefined ? a.file_path : undefined;
}

/**
 * The file's text from a Read's result: every line numbered from 1 (`     1\tline` or `1→line`),
 * a trailing system reminder aside. Undefined for anything else (an error, an empty file's
 * notice, lines it cut): then the read tells nothing sure.
 */
function readContent(output: string): string | undefined {
  const lines = output.replace(/\n*<system-reminder>[\s\S]*<\/system-reminder>\s*$/, '').split('\n');
  const text: string[] = [];
  for (const [i, line] of lines.entries()) {
    const m = /^\s*(\d+)(?:\t|→)(.*)$/.exec(line);
    if (!m || Number(m[1]) !== i + 1) return undefined;
    text.push(m[2]);
  }
  return text.join('\n');
}

/** Each tool result of the try, by the id of the call it answers. */
function resultsById(t: Transcript): Map<string, ToolResult> {
  const out = new Map<string, ToolResult>();
  for (const c of t.calls) for (const i of c.input) if (i.kind === 'tool-result' && i.id !== undefined) out.set(i.id, i);
  return out;
}

/** Replaces the first `old` in `text`; undefined when it is not there. */
function applyEdit(text: string, edit: { old: string; new: string }): string | undefined {
  const at = edit.old === '' ? -1 : text.indexOf(edit.old);
  return at < 0 ? undefined : text.slice(0, at) + edit.new + text.slice(at + edit.old.length);
}

/** A unified diff's two sides: context and removed lines, context and added lines. */
function patchSides(patch: string): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    if (/^(---|\+\+\+|\*\*\*|@@|diff |index )/.test(line)) continue;
    if (line.startsWith('-')) before.push(line.slice(1));
    else if (line.startsWith('+')) after.push(line.slice(1));
    else if (line.startsWith(' ')) {
      before.push(line.slice(1));
      after.push(line.slice(1));
    }
  }
  return { before: before.join('\n'), after: after.join('\n') };
}

/** Every file write, edit and patch of the try, in call order. */
export function fileChanges(t: Transcript): FileChange[] {
  // What the try last saw of each file, and how: its own write, or a read of the whole file.
  const known = new Map<string, { text: string; from: 'write' | 'read' }>();
  const results = resultsById(t);
  const out: FileChange[] = [];
  for (const c of t.calls) {
    c.toolCalls.forEach((tc, tool) => {
      const read = wholeRead(tc.name, tc.input);
      const result = tc.id === undefined ? undefined : results.get(tc.id);
      if (read !== undefined && result && !result.isError) {
        const text = readContent(result.output);
        if (text !== undefined) known.set(read, { text, from: 'read' });
      }
      const action = toolAction({ name: tc.name, input: tc.input });
      if (!action || action.kind === 'shell') return;
      if (action.kind === 'write') {
        const was = known.get(action.path);
        out.push({
          call: c.call,
          tool,
          kind: 'write',
          path: action.path,
          before: was?.text ?? '',
          after: action.content,
          whole: true,
          ...(was ? { against: was.from } : {}),
        });
        known.set(action.path, { text: action.content, from: 'write' });
      } else if (action.kind === 'edit') {
        const was = known.get(action.path);
        let now = was?.text;
        for (const e of action.edits) now = now === undefined ? undefined : applyEdit(now, e);
        if (was !== undefined && now !== undefined) {
          out.push({ call: c.call, tool, kind: 'edit', path: action.path, before: was.text, after: now, whole: true, against: was.from });
          known.set(action.path, { text: now, from: 'write' });
        } else {
          const join = (side: 'old' | 'new') => action.edits.map((e) => e[side]).join('\n⋯\n');
          out.push({ call: c.call, tool, kind: 'edit', path: action.path, before: join('old'), after: join('new'), whole: false });
          known.delete(action.path);
        }
      } else {
        out.push({ call: c.call, tool, kind: 'patch', path: action.paths.join(', '), ...patchSides(action.patch), whole: false });
        for (const p of action.paths) known.delete(p);
      }
    });
  }
  return out;
}

/** The change a call's tool call made, if it wrote a file. */
export function fileChangeAt(changes: readonly FileChange[], call: number, tool: number): FileChange | undefined {
  return changes.find((f) => f.call === call && f.tool === tool);
}
