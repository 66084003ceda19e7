// An agent may only change app/code (and the architect app/requirement.xml). Everything else
// it can reach in the task folder is snapshotted before and after its step; what differs is
// reported. Size + mtime (ns) + inode per entry: a rewrite, a replacement by rename, a new or a
// deleted file all show, without reading file contents (the non-passed folder can hold
// thousands of detail files).
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { HUMAN_HISTORY_RUN } from './run-name';
import type { TaskFolder } from '../workspace/task-folder';

/** Task-relative posix path → signature. */
export type Snapshot = Map<string, string>;

export interface SnapshotScope {
  task: TaskFolder;
  /** The run whose own folder (logs, journal, archive) the harness writes during the step. */
  run: string;
  /** The architect's product is app/requirement.xml: not an outside change for that step. */
  allowRequirement: boolean;
}

export function snapshotOutside(scope: SnapshotScope): Snapshot {
  const layout = scope.task;
  const rel = (p: string): string => path.relative(scope.task.root, p).split(path.sep).join('/');
  // The harness itself writes the history store, the scoring checkout, the working repository's
  // staging folder and the discard bins during a step (a failed try is reset; old bytecode is
  // deleted in the background); a sandboxed agent cannot reach .sweci.
  const skip = new Set<string>([
    rel(layout.codeDir),
    rel(layout.lockFile),
    rel(layout.run(scope.run).dir),
    rel(layout.run(HUMAN_HISTORY_RUN).dir),
    rel(layout.historyDir),
    rel(path.dirname(layout.scoringCodeDir)),
    rel(layout.workingGitStaging),
    rel(layout.agentHomeDir),
    rel(layout.discardDir),
    // Where earlier versions kept the bytecode seed (now in the user's cache, bytecode-seed.ts).
    rel(layout.oldBytecodeSeedDir),
  ]);
  if (scope.allowRequirement) skip.add(rel(layout.requirementFile));
  // A sequence's memory folder holds the agents' own notes: its contents are theirs to change,
  // but the folder itself is still seen (an agent of a task without memory that makes one is reported).
  const notInside = new Set([rel(layout.memoryDir)]);
  const snap: Snapshot = new Map();
  // Synchronous calls: a walk of a few thousand entries (pytest's bytecode cache among them) takes
  // a few ms this way, several times less than one promise per entry.
  const walk = (abs: string, rel: string): void => {
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return;
      throw err;
    }
    for (const e of entries) {
      const r = `${rel}/${e.name}`;
      if (skip.has(r)) continue;
      const p = path.join(abs, e.name);
      let st;
      try {
        st = lstatSync(p, { bigint: true });
      } catch {
        continue; // vanished while walking: the after-snapshot tells
      }
      if (st.isDirectory()) {
        snap.set(r, 'd');
        if (!notInside.has(r)) walk(p, r);
      } else if (st.isSymbolicLink()) {
        let target = '';
        try {
          target = readlinkSync(p);
        } catch {
          // vanished or replaced: '' differs from any link's target
        }
        snap.set(r, `l:${target}`);
      } else {
        snap.set(r, `f:${st.size}:${st.mtimeNs}:${st.ino}:${st.mode}`);
      }
    }
  };
  walk(layout.appDir, rel(layout.appDir));
  walk(layout.sweciDir, rel(layout.sweciDir));
  return snap;
}

/** Paths added, removed or changed between two snapshots, sorted. */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  for (const [p, sig] of after) if (before.get(p) !== sig) changed.push(p);
  for (const p of before.keys()) if (!after.has(p)) changed.push(p);
  return changed.sort();
}
