// Opens what changed between two iterations in VS Code's own diff editors: the code in the
// multi-file diff editor (both sides read-only `sweci:` documents), requirement.xml side by side.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import { iterationRevision, revisionLabel, type Revision } from '../../core/inspect/revisions';
import { diffRevisions, type FileChange } from '../../core/inspect/tree-diff';
import { ARCHIVE } from '../../core/loop/run-store';
import { archivedRequirementUri, revisionUri, type RevisionRef } from '../revisions/revision-content';
import type { TaskFolder } from '../../core/workspace/task-folder';

export interface OpenedChanges {
  title: string;
  changes: FileChange[];
}

/** The `vscode.changes` resource list: [label resource, left, right] per file. */
function changeTuples(before: RevisionRef, after: RevisionRef, changes: FileChange[]): [vscode.Uri, vscode.Uri, vscode.Uri][] {
  return changes.map((c) => [revisionUri(after, c.path), revisionUri(before, c.path), revisionUri(after, c.path)]);
}

async function openChanges(before: Revision, after: Revision, title: string): Promise<OpenedChanges> {
  const changes = await diffRevisions(before, after);
  if (changes.length === 0) {
    void messages.showInformationMessage(vscode.l10n.t('{0}: no file differs.', title));
    return { title, changes };
  }
  await vscode.commands.executeCommand('vscode.changes', title, changeTuples(before, after, changes));
  return { title, changes };
}

/** The code an iteration changed since the iteration before it in its run. */
export async function openIterationChanges(task: TaskFolder, ref: RevisionRef): Promise<OpenedChanges | string> {
  const { revision, previous } = await iterationRevision(task, ref.run, ref.iteration);
  if (!previous) return `${revisionLabel(ref.run, ref.iteration)} is where the run starts: it has no code changes.`;
  return openChanges(previous, revision, `${revision.label}: code changes since ${previous.iteration === 0 ? 'base' : `#${previous.iteration}`}`);
}

/** The code of `left` against `right`, which may be in different runs (e.g. a replay and an agent). */
export async function compareRevisions(task: TaskFolder, left: RevisionRef, right: RevisionRef): Promise<OpenedChanges> {
  const [a, b] = await Promise.all([iterationRevision(task, left.run, left.iteration), iterationRevision(task, right.run, right.iteration)]);
  const mixed = a.revision.store !== b.revision.store ? ' (tests/ left out)' : '';
  return openChanges(a.revision, b.revision, `${a.revision.label} ↔ ${b.revision.label}${mixed}`);
}

export function archivedRequirement(task: TaskFolder, ref: RevisionRef): string | undefined {
  const file = path.join(task.run(ref.run).iterationDir(ref.iteration), ARCHIVE.requirement);
  return fs.existsSync(file) ? file : undefined;
}

/** requirement.xml of `left` against `right` in the side-by-side diff editor; a reason when either has none. */
export async function compareRequirements(task: TaskFolder, left: RevisionRef, right: RevisionRef): Promise<string | undefined> {
  const a = archivedRequirement(task, left);
  const b = archivedRequirement(task, right);
  const missing = [!a && revisionLabel(left.run, left.iteration), !b && revisionLabel(right.run, right.iteration)].filter(Boolean);
  if (missing.length)
    return `No requirement.xml to compare: ${missing.join(' and ')} archived none (the base and a replay of the developers' commits have none).`;
  await vscode.commands.executeCommand(
    'vscode.diff',
    archivedRequirementUri(left),
    archivedRequirementUri(right),
    `requirement.xml ${revisionLabel(left.run, left.iteration)} ↔ ${revisionLabel(right.run, right.iteration)}`,
    { preview: true },
  );
  return undefined;
}
