// The Non-passed tests view: the tests the target passes and the current code does not,
// grouped by test file. It renders the controller's state; it never runs anything.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TaskState } from '../../core/checkout/task-state';
import type { NonPassedEntry } from '../../core/gap/non-passed';
import type { IterationNonPassed } from '../../core/inspect/iteration-details';
import type { TaskController } from '../task-controller';
import { kindLabel, testLabel, testDescription } from './non-passed-labels';
import { relativePaths, shortDescription } from './view-text';

export type NonPassedNode = { type: 'file'; file: string; entries: NonPassedEntry[] } | { type: 'test'; entry: NonPassedEntry };

const KIND_ICON: Record<NonPassedEntry['kind'], [string, string]> = {
  failed: ['close', 'testing.iconFailed'],
  error: ['error', 'testing.iconErrored'],
  'not-collected': ['question', 'testing.iconSkipped'],
  skipped: ['debug-step-over', 'testing.iconSkipped'],
};

export class NonPassedTreeProvider implements vscode.TreeDataProvider<NonPassedNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<NonPassedNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: NonPassedNode[] = [];
  private state: TaskState | undefined;
  /** An iteration the view shows instead of the current code (it follows the iteration view). */
  private shownIteration: { label: string; data: IterationNonPassed } | undefined;
  private readonly sub: vscode.Disposable;
  private readonly firstLoad: Promise<void>;

  constructor(controller: TaskController) {
    this.firstLoad = controller.firstLoad;
    this.sub = controller.onDidChange((state) => {
      this.state = state;
      this.render();
    });
    this.state = controller.current;
    this.render();
  }

  /** Shows the tests as they were at an iteration (`label`, e.g. `agent-1 #3`); undefined goes back to the current code. */
  showIteration(shown: { label: string; data: IterationNonPassed } | undefined): void {
    this.shownIteration = shown;
    this.render();
  }

  /** The iteration shown instead of the current code, if any. */
  get iterationShown(): string | undefined {
    return this.shownIteration?.label;
  }

  private render(): void {
    const byFile = new Map<string, NonPassedEntry[]>();
    for (const entry of this.shownIteration?.data.entries ?? this.state?.entries ?? []) {
      const list = byFile.get(entry.file) ?? [];
      list.push(entry);
      byFile.set(entry.file, list);
    }
    this.roots = [...byFile.keys()].sort().map((file) => ({
      type: 'file' as const,
      file,
      entries: byFile.get(file)!.sort((a, b) => (a.lineno ?? 0) - (b.lineno ?? 0) || a.nodeid.localeCompare(b.nodeid)),
    }));
    this.changed.fire(undefined);
  }

  /** The files, once the task has been read (TaskController.firstLoad says why); a file's tests. */
  getChildren(node?: NonPassedNode): NonPassedNode[] | Promise<NonPassedNode[]> {
    return node ? this.children(node) : this.firstLoad.then(() => this.roots);
  }

  private children(node: NonPassedNode): NonPassedNode[] {
    return node.type === 'file' ? node.entries.map((entry) => ({ type: 'test' as const, entry })) : [];
  }

  getTreeItem(node: NonPassedNode): vscode.TreeItem {
    const codeDir = this.state ? this.state.task.codeDir : undefined;
    if (node.type === 'file') {
      const item = new vscode.TreeItem(node.file, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `file:${node.file}`;
      item.description = `${node.entries.length}`;
      item.iconPath = vscode.ThemeIcon.File;
      if (codeDir) item.resourceUri = vscode.Uri.file(path.join(codeDir, node.file));
      item.contextValue = 'test-file';
      return item;
    }
    const { entry } = node;
    const item = new vscode.TreeItem(testLabel(entry), vscode.TreeItemCollapsibleState.None);
    item.id = `test:${entry.nodeid}`;
    // The error line, short and with task-relative paths; the whole of it is in the tooltip.
    item.description = shortDescription(testDescription(entry), this.state?.task);
    const [icon, color] = KIND_ICON[entry.kind];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    item.tooltip = this.tooltip(entry);
    item.accessibilityInformation = { label: `${kindLabel(entry)}: ${entry.nodeid}` };
    const hasDetail = !!entry.detailFile && fs.existsSync(entry.detailFile);
    item.contextValue = hasDetail ? 'test-detail' : 'test';
    if (codeDir) {
      const line = entry.lineno ?? 0;
      item.command = {
        title: vscode.l10n.t('Open Test'),
        command: 'vscode.open',
        arguments: [
          vscode.Uri.file(path.join(codeDir, entry.file)),
          { selection: new vscode.Range(line, 0, line, 0), preview: true } satisfies vscode.TextDocumentShowOptions,
        ],
      };
    }
    return item;
  }

  private tooltip(entry: NonPassedEntry): vscode.MarkdownString {
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${kindLabel(entry)}**\n\n`);
    md.appendText(entry.nodeid);
    md.appendMarkdown('\n\n');
    const rel = (text: string) => (this.state ? relativePaths(text, this.state.task) : text);
    const line = testDescription(entry);
    if (line && entry.kind !== 'not-collected') {
      md.appendText(rel(line));
      md.appendMarkdown('\n\n');
    }
    if (entry.tracebackHead) md.appendCodeblock(rel(entry.tracebackHead), 'text');
    else if (entry.kind === 'not-collected') {
      md.appendText(vscode.l10n.t('The target passes this test, but the current run did not collect or execute it.'));
    }
    return md;
  }

  /** The view's description: passed now / passed by target · gap. */
  describe(): string | undefined {
    const c = this.shownIteration?.data.counts ?? this.state?.counts;
    if (!c) return undefined;
    const counts = vscode.l10n.t('{0} / {1} passed · gap {2}', c.passedNow, c.passedByTarget, c.gap);
    return this.shownIteration ? vscode.l10n.t('at {0}: {1}', this.shownIteration.label, counts) : counts;
  }

  /** Flattened (file, entry) pairs in display order; the test API reads the tree through this. */
  flatten(): { file: string; item: vscode.TreeItem; entry: NonPassedEntry }[] {
    const out: { file: string; item: vscode.TreeItem; entry: NonPassedEntry }[] = [];
    for (const root of this.roots) {
      if (root.type !== 'file') continue;
      for (const child of this.children(root)) {
        if (child.type === 'test') out.push({ file: root.file, item: this.getTreeItem(child), entry: child.entry });
      }
    }
    return out;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
