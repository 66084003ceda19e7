// The iteration view: one editor that steps along a run (Next / Previous Iteration) and shows an
// iteration like a code review, or two iterations compared. It sends its webview the page to show
// (iteration-page.ts, report-page.ts) when the user steps or a run's records change; the webview
// builds its DOM from it (webview-ui/iteration-view.ts). Every message from the webview is parsed
// (webview/webview-host.ts) and acts only on what the view itself sent.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { openTestAt } from './open-test';
import * as messages from '../messages';
import { loadComparison, runIterations, stepPair, type Comparison } from '../../core/inspect/comparison';
import { loadIterationDetails, loadIterationReport, stepIteration, type IterationDetails } from '../../core/inspect/iteration-details';
import type { IterationReport } from '../../core/inspect/report-rows';
import { revisionLabel } from '../../core/inspect/revisions';
import { iterationViewMessageSchema, type IterationHostMessage, type IterationViewMessage } from '../../shared/iteration-protocol';
import { log } from '../log';
import { compareRequirements, compareRevisions, openIterationChanges } from './code-changes';
import { comparisonContent, iterationContent, iterationTitle, type ShownPage } from './iteration-page';
import { reportContent } from './report-page';
import { archivedRequirementUri, type RevisionRef } from '../revisions/revision-content';
import { errorMessage } from '../../core/util/errors';
import { PageLoads } from '../../core/util/page-loads';
import { WebviewHost } from '../webview/webview-host';
import type { TaskFolder } from '../../core/workspace/task-folder';

export const ITERATION_VIEW_TYPE = 'sweci.iteration';

/** An iteration (with `report`: its test report as a table), or two compared. */
/** What the webview asks for (its `ready` is the host's). */
type ViewAction = Exclude<IterationViewMessage, { type: 'ready' }>;

type Shown = { kind: 'iteration'; details: IterationDetails; report?: IterationReport } | { kind: 'compare'; comparison: Comparison };

const refSchema = z.strictObject({ run: z.string().check(z.minLength(1)), iteration: z.int().check(z.minimum(0)) });
/** What the view shows, kept for a window reload: an iteration (or its test report), or two compared. */
const keptSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('iteration'), at: refSchema, report: z.boolean() }),
  z.strictObject({ kind: z.literal('compare'), left: refSchema, right: refSchema }),
]);
type Kept = z.infer<typeof keptSchema>;

export interface IterationViewDeps {
  context: vscode.ExtensionContext;
  task(): TaskFolder | undefined;
  /** Fires when a run's records may have changed (an iteration recorded, a run removed). */
  onDidChangeRuns: vscode.Event<void>;
  /** Reveals the shown iteration in the Iterations view. */
  reveal(ref: RevisionRef): Promise<void>;
}

export class IterationViewHost implements vscode.Disposable {
  private readonly host: WebviewHost<IterationViewMessage, IterationHostMessage, Record<never, never>, Kept>;
  private shownValue: Shown | undefined;
  /** Which load's result may still be shown (loads end in any order). */
  private readonly loads = new PageLoads<Shown>();
  /** The last page sent, as JSON: a re-read that shows the same is not sent again. */
  private sentJson: string | undefined;
  private selection: RevisionRef | undefined;
  private readonly subs: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<RevisionRef | undefined>();
  /** The iteration shown (undefined in compare mode or when closed); the Non-passed view can follow it. */
  readonly onDidShowIteration = this.changed.event;
  private readonly selectionChanged = new vscode.EventEmitter<RevisionRef | undefined>();
  /** The iteration selected for Compare changed (undefined: cleared or used). */
  readonly onDidChangeCompareSelection = this.selectionChanged.event;
  private readonly comparedChanged = new vscode.EventEmitter<readonly RevisionRef[]>();
  /** The two iterations compared, as the view moves (Previous/Next, a new compare); none when it shows one or closes. */
  readonly onDidChangeCompared = this.comparedChanged.event;
  private comparedKey = '[]';

  constructor(private readonly deps: IterationViewDeps) {
    this.host = new WebviewHost({
      extensionUri: deps.context.extensionUri,
      viewType: ITERATION_VIEW_TYPE,
      title: vscode.l10n.t('Iteration'),
      script: 'iteration-view.js',
      style: 'iteration-view.css',
      incoming: iterationViewMessageSchema,
      replies: {},
      // Focus stays where the user was (the Iterations view), so the keys keep stepping there.
      preserveFocus: true,
      // A new page (opened, or reloaded after being hidden) has nothing yet.
      onReady: () => {
        this.sentJson = undefined;
        const message = this.message();
        if (message) this.sentJson = JSON.stringify(message);
        return message ? [message] : [];
      },
      onMessage: (m) => this.handle(m),
      onDidClose: () => {
        this.changed.fire(undefined);
        this.fireCompared([]);
      },
      // After a window reload: what it showed, read again from the run's records.
      restore: { kept: { memento: deps.context.workspaceState, schema: keptSchema }, restore: (kept) => this.restore(kept) },
    });
    this.subs.push(
      this.host,
      this.selectionChanged,
      this.comparedChanged,
      deps.onDidChangeRuns(() => void this.rerender()),
    );
  }

  get shown(): Shown | undefined {
    return this.host.isOpen ? this.shownValue : undefined;
  }

  get selectedForCompare(): RevisionRef | undefined {
    return this.selection;
  }

  /** Shows an iteration; with `report`, its test report. */
  async show(ref: RevisionRef, opts: { report?: boolean } = {}): Promise<IterationDetails> {
    const dir = this.requireTask();
    const load = this.loads.request();
    const details = await loadIterationDetails(dir, ref.run, ref.iteration);
    const report = opts.report ? await loadIterationReport(dir, details) : undefined;
    // Asked for something else meanwhile (Next pressed twice): that one is shown instead.
    if (!load.current()) return details;
    this.present({ kind: 'iteration', details, ...(report ? { report } : {}) });
    void this.deps.reveal(ref);
    this.changed.fire(ref);
    return details;
  }

  /** Moves the view one iteration along its run (a comparison: both sides); returns why it did not move. */
  async step(direction: 1 | -1): Promise<string | undefined> {
    const shown = this.shown;
    if (shown?.kind === 'compare') return this.stepComparison(shown.comparison, direction);
    if (shown?.kind !== 'iteration') return 'Open an iteration first (click one in the Iterations view).';
    const { details } = shown;
    const next = stepIteration(details.iterations, details.iteration, direction);
    if (next === undefined) return direction > 0 ? `${iterationTitle(details)} is the run's last iteration.` : `${iterationTitle(details)} is the run's first.`;
    // The test report steps to the next iteration's test report.
    await this.show({ run: details.run, iteration: next }, { report: shown.report !== undefined });
    return undefined;
  }

  private async stepComparison(comparison: Comparison, direction: 1 | -1): Promise<string | undefined> {
    const dir = this.requireTask();
    const { left, right } = comparison;
    const [li, ri] = await Promise.all([runIterations(dir, left.run), runIterations(dir, right.run)]);
    const next = stepPair({ iterations: li, at: left }, { iterations: ri, at: right }, direction);
    if (typeof next === 'string') return next;
    const load = this.loads.request();
    const stepped = await loadComparison(dir, next.left, next.right);
    if (!load.current()) return undefined;
    this.present({ kind: 'compare', comparison: stepped });
    this.changed.fire(undefined);
    return undefined;
  }

  async selectForCompare(ref: RevisionRef | undefined): Promise<void> {
    this.selection = ref;
    this.selectionChanged.fire(ref);
    await vscode.commands.executeCommand('setContext', 'sweci.hasCompareSelection', ref !== undefined);
    await this.rerender();
  }

  /** Compares the selection (left) with `ref` (right): the comparison in the view, the code in the multi-file diff. */
  async compareWithSelected(ref: RevisionRef): Promise<Comparison | string> {
    if (!this.selection) return 'Choose Select for Compare on an iteration or a run first.';
    const dir = this.requireTask();
    const load = this.loads.request();
    const comparison = await loadComparison(dir, this.selection, ref);
    if (load.current()) {
      this.present({ kind: 'compare', comparison });
      this.changed.fire(undefined);
    }
    // Used: the mark and the status bar item go.
    await this.selectForCompare(undefined);
    return comparison;
  }

  private requireTask(): TaskFolder {
    const dir = this.deps.task();
    if (!dir) throw new Error('No SWE-CI task is open.');
    return dir;
  }

  private present(shown: Shown): void {
    this.shownValue = shown;
    this.host.keep(keptOf(shown));
    const { left, right } = shown.kind === 'compare' ? shown.comparison : {};
    this.fireCompared(left && right ? [left, right].map(({ run, iteration }) => ({ run, iteration })) : []);
    this.host.show();
    this.render();
  }

  /** Shows again what was kept, in the panel VS Code brought back after a window reload. */
  private async restore(kept: Kept): Promise<void> {
    if (kept.kind === 'iteration') {
      await this.show(kept.at, { report: kept.report });
      return;
    }
    const load = this.loads.request();
    const comparison = await loadComparison(this.requireTask(), kept.left, kept.right);
    if (load.current()) this.present({ kind: 'compare', comparison });
  }

  private fireCompared(refs: readonly RevisionRef[]): void {
    const key = JSON.stringify(refs);
    if (key === this.comparedKey) return;
    this.comparedKey = key;
    this.comparedChanged.fire(refs);
  }

  /** Sends the page of what is shown (the host holds it until the webview is ready for it). */
  private render(): void {
    const message = this.message();
    if (!message) return;
    const json = JSON.stringify(message);
    if (json === this.sentJson) return;
    this.sentJson = json;
    this.host.post(message);
  }

  /** The page of what is shown, titling the panel after it; undefined when closed or empty. */
  private message(): IterationHostMessage | undefined {
    if (!this.host.isOpen || !this.shownValue) return undefined;
    const { title, page } = this.content(this.shownValue);
    this.host.setTitle(title);
    return { type: 'show', page };
  }

  private content(shown: Shown): ShownPage {
    const selected = this.selection && revisionLabel(this.selection.run, this.selection.iteration);
    if (shown.kind === 'compare') return comparisonContent(shown.comparison);
    return shown.report ? reportContent(shown.details, shown.report) : iterationContent(shown.details, selected);
  }

  /** Reloads what is shown from disk (a run changed); closes nothing if it is gone, just says so in the log. */
  private async rerender(): Promise<void> {
    const shown = this.shown;
    const dir = this.deps.task();
    if (!shown || !dir) return;
    // The user may step while this reads: then what they stepped to stays (never this older page).
    const load = this.loads.reload(shown);
    try {
      let fresh: Shown;
      if (shown.kind === 'iteration') {
        const details = await loadIterationDetails(dir, shown.details.run, shown.details.iteration);
        const report = shown.report && (await loadIterationReport(dir, details));
        fresh = { kind: 'iteration', details, ...(report ? { report } : {}) };
      } else {
        const { left, right } = shown.comparison;
        fresh = { kind: 'compare', comparison: await loadComparison(dir, left, right) };
      }
      if (!load.current(this.shownValue)) return;
      this.shownValue = fresh;
      this.render();
    } catch (err) {
      log().warn(`Iteration view: ${errorMessage(err)}`);
    }
  }

  private async handle(message: ViewAction): Promise<void> {
    const why = await this.act(message).catch((err: unknown) => errorMessage(err));
    if (why) void messages.showInformationMessage(why);
  }

  private async act(m: ViewAction): Promise<string | undefined> {
    const shown = this.shown;
    const dir = this.deps.task();
    if (!shown || !dir) return undefined;
    switch (m.type) {
      case 'step':
        return this.step(m.direction);
      case 'open-test':
        return openTestAt(dir, m.nodeid);
      case 'open-file': {
        if (shown.kind !== 'iteration') return undefined;
        const f = shown.details.files[m.index];
        if (f) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(f.file), { preview: true });
        return undefined;
      }
      case 'open-code-changes': {
        if (shown.kind === 'compare') {
          await compareRevisions(dir, shown.comparison.left, shown.comparison.right);
          return undefined;
        }
        const r = await openIterationChanges(dir, shown.details);
        return typeof r === 'string' ? r : undefined;
      }
      case 'open-requirement':
        if (shown.kind !== 'iteration' || !shown.details.requirement) return undefined;
        await vscode.window.showTextDocument(archivedRequirementUri(shown.details), { preview: true });
        return undefined;
      case 'open-requirement-diff': {
        if (shown.kind === 'compare') return compareRequirements(dir, shown.comparison.left, shown.comparison.right);
        const prev = shown.details.requirement?.previousIteration;
        if (prev === undefined) return 'This iteration has no earlier requirement.xml to compare with.';
        return compareRequirements(dir, { run: shown.details.run, iteration: prev }, shown.details);
      }
      case 'open-transcript': {
        // Only a try the view listed: the rendered iteration's own.
        if (shown.kind !== 'iteration' || !shown.details.transcripts.some((t) => t.role === m.role && t.try === m.try)) return undefined;
        const { run, iteration } = shown.details;
        await vscode.commands.executeCommand('sweci.openTranscript', { run, iteration, role: m.role, try: m.try });
        return undefined;
      }
      case 'open-test-report':
      case 'close-test-report':
        if (shown.kind === 'iteration')
          await this.show({ run: shown.details.run, iteration: shown.details.iteration }, { report: m.type === 'open-test-report' });
        return undefined;
      case 'open-raw-report':
        // The file the view rendered the table from, never a path from the message.
        if (shown.kind === 'iteration' && shown.report?.raw)
          await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(shown.report.file), { preview: true });
        return undefined;
      case 'select-for-compare':
        if (shown.kind === 'iteration') await this.selectForCompare({ run: shown.details.run, iteration: shown.details.iteration });
        return undefined;
      case 'compare-with-selected':
        if (shown.kind === 'iteration') {
          const r = await this.compareWithSelected({ run: shown.details.run, iteration: shown.details.iteration });
          if (typeof r === 'string') return r;
        }
        return undefined;
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

function keptOf(shown: Shown): Kept {
  if (shown.kind === 'compare') {
    const { left, right } = shown.comparison;
    return { kind: 'compare', left: { run: left.run, iteration: left.iteration }, right: { run: right.run, iteration: right.iteration } };
  }
  return { kind: 'iteration', at: { run: shown.details.run, iteration: shown.details.iteration }, report: shown.report !== undefined };
}
