// Read-only documents for a file as it was in an iteration: `sweci:/<path>?run=…&iteration=…`,
// and for an iteration's archived requirement.xml (`…&archive=requirement`). The provider looks
// the commit up in the run's own records (never takes a commit or a path to read from the URI),
// so a crafted link can only show what the task's runs recorded; and a record opened this way
// cannot be edited by mistake.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ARCHIVE } from '../../core/loop/run-store';
import { iterationRevision } from '../../core/inspect/revisions';
import { readFileAt } from '../../core/inspect/tree-diff';
import type { TaskFolder } from '../../core/workspace/task-folder';

export const REVISION_SCHEME = 'sweci';

export interface RevisionRef {
  run: string;
  iteration: number;
}

export function revisionUri(ref: RevisionRef, file: string): vscode.Uri {
  const query = new URLSearchParams({ run: ref.run, iteration: String(ref.iteration) }).toString();
  return vscode.Uri.from({ scheme: REVISION_SCHEME, path: `/${file}`, query });
}

/** The iteration's archived requirement.xml, read-only. */
export function archivedRequirementUri(ref: RevisionRef): vscode.Uri {
  const query = new URLSearchParams({ run: ref.run, iteration: String(ref.iteration), archive: 'requirement' }).toString();
  return vscode.Uri.from({ scheme: REVISION_SCHEME, path: `/${ARCHIVE.requirement}`, query });
}

export function parseRevisionUri(uri: vscode.Uri): (RevisionRef & { file: string; archive: boolean }) | undefined {
  const q = new URLSearchParams(uri.query);
  const run = q.get('run');
  const iteration = Number(q.get('iteration'));
  // A run name is one folder name under .sweci/runs.
  if (!run || run.includes('/') || run.includes('\\') || run === '.' || run === '..') return undefined;
  if (!Number.isInteger(iteration) || iteration < 0) return undefined;
  return { run, iteration, file: uri.path.replace(/^\//, ''), archive: q.get('archive') === 'requirement' };
}

export class RevisionContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly task: () => TaskFolder | undefined) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseRevisionUri(uri);
    const dir = this.task();
    if (!ref || !dir) return '';
    if (ref.archive) {
      const file = path.join(dir.run(ref.run).iterationDir(ref.iteration), ARCHIVE.requirement);
      return fs.readFile(file, 'utf8').catch(() => '');
    }
    const { revision } = await iterationRevision(dir, ref.run, ref.iteration);
    // A file the revision does not have is an empty side of the diff (added or deleted).
    const bytes = await readFileAt(revision.gitDir, revision.commit, ref.file);
    return bytes ? new TextDecoder('utf-8').decode(bytes) : '';
  }
}

export function registerRevisionContent(task: () => TaskFolder | undefined): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(REVISION_SCHEME, new RevisionContentProvider(task));
}
