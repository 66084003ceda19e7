// The Candidate Tasks view: the spans SWE-CI: Find Tasks in This Repository… mined, kept ones
// first, each dropped one with its reason. While mining, each span appears as the walk finds it
// (its lines counted at the end). One flat list; the tooltip holds the whole story.
import * as vscode from 'vscode';
import type { FoundSpan, MinedCandidate } from '../../core/curate/mine';

export interface MinedRepository {
  /** The repository's folder (git runs there; checkouts read it). */
  dir: string;
  ref: string;
  commits: number;
  candidates: MinedCandidate[];
}

export interface CandidateNode {
  type: 'candidate';
  repoDir: string;
  candidate: MinedCandidate;
}

/** A span found while mining goes on: no lines counted yet, no menu. */
export interface FoundNode {
  type: 'found';
  repoDir: string;
  span: FoundSpan;
}

export type CandidatesNode = CandidateNode | FoundNode;

/** A search in progress: the spans found so far. */
interface Mining {
  dir: string;
  ref: string;
  found: FoundSpan[];
}

const short = (sha: string): string => sha.slice(0, 7);

/** A dependency entry (`group|requirement`) as a reader says it: the project's own group unnamed. */
function requirementText(entry: string): string {
  const bar = entry.indexOf('|');
  const group = entry.slice(0, bar);
  const requirement = entry.slice(bar + 1);
  return group === 'project' ? requirement : `${requirement} (${group})`;
}

/** The dependency change that ended the span, in a few words (the tooltip lists it whole). */
function endedByText(c: FoundSpan): string {
  if (!c.endedBy) return vscode.l10n.t('reaches the tip');
  const parts = [...c.endedBy.added.map((e) => `+${requirementText(e)}`), ...c.endedBy.removed.map((e) => `−${requirementText(e)}`)];
  return vscode.l10n.t('ended by {0}', parts.length > 0 ? parts.join(', ') : short(c.endedBy.commit));
}

export class CandidatesTreeProvider implements vscode.TreeDataProvider<CandidatesNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private mined: MinedRepository | undefined;
  private mining: Mining | undefined;

  /** A search starts: the list empties, and fills as spans are found. */
  begin(dir: string, ref: string): void {
    this.mined = undefined;
    this.mining = { dir, ref, found: [] };
    this.changed.fire();
  }

  found(span: FoundSpan): void {
    if (!this.mining) return;
    this.mining.found.push(span);
    this.changed.fire();
  }

  /** The search's result (undefined: it failed or was cancelled, and nothing is shown). */
  show(mined: MinedRepository | undefined): void {
    this.mining = undefined;
    this.mined = mined;
    this.changed.fire();
  }

  isMining(): boolean {
    return this.mining !== undefined;
  }

  foundCount(): number {
    return this.mining?.found.length ?? 0;
  }

  get shown(): MinedRepository | undefined {
    return this.mined;
  }

  /** The view's description: how many kept of how many spans. */
  describe(): string | undefined {
    if (this.mining) return vscode.l10n.t('mining {0}… {1} spans found', this.mining.ref, this.mining.found.length);
    if (!this.mined) return undefined;
    const kept = this.mined.candidates.filter((c) => !c.dropped).length;
    return vscode.l10n.t('{0} of {1} spans kept · {2} commits', kept, this.mined.candidates.length, this.mined.commits);
  }

  getChildren(node?: CandidatesNode): CandidatesNode[] {
    if (node) return [];
    if (this.mining) {
      const { dir } = this.mining;
      return [...this.mining.found].reverse().map((span) => ({ type: 'found', repoDir: dir, span }));
    }
    if (!this.mined) return [];
    const { dir } = this.mined;
    // Kept first (newest oracle first), then the dropped ones in the same order.
    const order = [...this.mined.candidates].sort((a, b) => Number(!!a.dropped) - Number(!!b.dropped) || b.oracleIndex - a.oracleIndex);
    return order.map((candidate) => ({ type: 'candidate', repoDir: dir, candidate }));
  }

  getTreeItem(node: CandidatesNode): vscode.TreeItem {
    return node.type === 'found' ? this.foundItem(node.span) : this.candidateItem(node.candidate);
  }

  private foundItem(span: FoundSpan): vscode.TreeItem {
    const item = new vscode.TreeItem(`${short(span.base)} → ${short(span.oracle)}`, vscode.TreeItemCollapsibleState.None);
    item.description = `${vscode.l10n.t('{0} days · {1} commits · counting lines…', span.days, span.commits)} · ${endedByText(span)}`;
    item.iconPath = new vscode.ThemeIcon('loading~spin');
    item.contextValue = 'span-found';
    item.tooltip = `${span.base}\n${span.oracle}`;
    return item;
  }

  private candidateItem(c: MinedCandidate): vscode.TreeItem {
    const item = new vscode.TreeItem(`${short(c.base)} → ${short(c.oracle)}`, vscode.TreeItemCollapsibleState.None);
    const facts = vscode.l10n.t('{0} days · {1} commits · {2} changed / {3} source lines', c.days, c.commits, c.changedLines, c.sourceLines);
    item.description = c.dropped ? vscode.l10n.t('dropped: {0}', c.dropped.reason) : `${facts} · ${endedByText(c)}`;
    item.iconPath = new vscode.ThemeIcon(c.dropped ? 'circle-slash' : 'git-compare');
    item.contextValue = c.dropped ? 'candidate-dropped' : 'candidate';
    const tip = new vscode.MarkdownString();
    tip.appendMarkdown(`**${vscode.l10n.t('Base')}** \`${c.base}\` (${c.baseTime.slice(0, 10)})  \n`);
    tip.appendMarkdown(`**${vscode.l10n.t('Oracle')}** \`${c.oracle}\` (${c.oracleTime.slice(0, 10)})  \n`);
    tip.appendText(`${facts}\n`);
    tip.appendText(`${endedByText(c)}\n`);
    if (c.dropped) tip.appendText(`${vscode.l10n.t('Dropped: {0}', c.dropped.reason)}\n`);
    item.tooltip = tip;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
