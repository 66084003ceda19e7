// The files a try's tool calls wrote, each write with the file before and after it, as far as
// the transcript tells: a write's "before" is the file as this try last wrote it (empty when it
// had not); an edit applies to that, or, when the try never wrote the whole file, is shown as its
// old and new strings. The Transcript panel draws these diffs and the host opens the same ones in
// the diff editor, both from the transcript the host sent (a message names a call and a tool
// index, never a path). Browser-safe.
import type { Transcript } from '../core/transcript/transcript-schema';
import { toolAction } from '../core/transcript/tool-actions';

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
  const known = new Map<string, string>();
  const out: FileChange[] = [];
  for (const c of t.calls) {
    c.toolCalls.forEach((tc, tool) => {
      const action = toolAction({ name: tc.name, input: tc.input });
      if (!action || action.kind === 'shell') return;
      if (action.kind === 'write') {
        out.push({ call: c.call, tool, kind: 'write', path: action.path, before: known.get(action.path) ?? '', after: action.content, whole: true });
        known.set(action.path, action.content);
      } else if (action.kind === 'edit') {
        const was = known.get(action.path);
        let now = was;
        for (const e of action.edits) now = now === undefined ? undefined : applyEdit(now, e);
        if (was !== undefined && now !== undefined) {
          out.push({ call: c.call, tool, kind: 'edit', path: action.path, before: was, after: now, whole: true });
          known.set(action.path, now);
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
