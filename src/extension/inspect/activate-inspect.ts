// Stepping, diffs and comparisons: the iteration view, the `sweci:` documents and their commands.
import * as vscode from 'vscode';
import { showError } from '../errors';
import * as messages from '../messages';
import { readIterationRecords } from '../../core/loop/iteration-record';
import { stepIteration } from '../../core/inspect/iteration-details';
import { openIterationChanges } from './code-changes';
import { pickIteration } from './pick-iteration';
import { compareSelectionStatus } from './compare-selection-status';
import { IterationViewHost } from './iteration-view';
import { registerRevisionContent, type RevisionRef } from '../revisions/revision-content';
import type { TaskFolder } from '../../core/workspace/task-folder';

/** A command's title, for the error it shows (computed when shown, in the display language). */
function commandTitle(id: string): string {
  switch (id) {
    case 'sweci.openIteration':
      return vscode.l10n.t('Open Iteration');
    case 'sweci.openCodeChanges':
      return vscode.l10n.t('Code Changes');
    case 'sweci.openTestReport':
      return vscode.l10n.t('Open Test Report');
    case 'sweci.selectForCompare':
      return vscode.l10n.t('Select for Compare');
    case 'sweci.compareWithSelected':
      return vscode.l10n.t('Compare with Selected');
    case 'sweci.nextIteration':
      return vscode.l10n.t('Next Iteration');
    case 'sweci.previousIteration':
      return vscode.l10n.t('Previous Iteration');
    default:
      return vscode.l10n.t('SWE-CI');
  }
}

/** What the commands get: a row of the Iterations view (iteration or run), or a reference. */
type Target =
  { type: 'iteration'; run: string; record: { iteration: number } } | { type: 'run'; summary: { info: { name: string } } } | RevisionRef | undefined;

export interface InspectDeps {
  context: vscode.ExtensionContext;
  task(): TaskFolder | undefined;
  onDidChangeRuns: vscode.Event<void>;
  reveal(ref: RevisionRef): Promise<void>;
  /** The row selected in the Iterations view, for commands run from the palette or a keybinding. */
  selectedRow(): Target;
  /** The run new iterations go to: listed first when the user is asked to pick. */
  activeRun?(): string | undefined;
}

/** A run's row stands for its last iteration. */
async function refOf(task: TaskFolder, target: Target): Promise<RevisionRef | undefined> {
  if (!target) return undefined;
  if ('type' in target) {
    if (target.type === 'iteration') return { run: target.run, iteration: target.record.iteration };
    if (target.type === 'run') {
      const records = await readIterationRecords(task.run(target.summary.info.name).iterationsFile);
      const last = records[records.length - 1];
      return last && { run: target.summary.info.name, iteration: last.iteration };
    }
    return undefined;
  }
  return typeof target.run === 'string' && Number.isInteger(target.iteration) ? { run: target.run, iteration: target.iteration } : undefined;
}

export function activateInspect(deps: InspectDeps): { view: IterationViewHost; disposables: vscode.Disposable[] } {
  const view = new IterationViewHost(deps);
  const say = (why: string | undefined) => {
    if (why) void messages.showInformationMessage(why);
    return why;
  };
  /**
   * The iteration a command acts on: its argument, else the iteration view's, else the selected
   * row, else the one the user picks from a list. '' when they cancel the pick.
   */
  const resolve = async (target: Target, title = 'Choose an iteration'): Promise<{ dir: TaskFolder; ref: RevisionRef } | string> => {
    const dir = deps.task();
    if (!dir) return 'No SWE-CI task is open.';
    const shown = view.shown;
    const ref =
      (await refOf(dir, target)) ??
      (shown?.kind === 'iteration' ? { run: shown.details.run, iteration: shown.details.iteration } : undefined) ??
      (await refOf(dir, deps.selectedRow())) ??
      (await pickIteration(dir, title, deps.activeRun?.()));
    return ref ? { dir, ref } : '';
  };
  /** Steps the iteration view; with none open, opens the one next to the selected row. */
  const step = async (direction: 1 | -1): Promise<string | undefined> => {
    if (view.shown?.kind === 'iteration' || view.shown?.kind === 'compare') return view.step(direction);
    const r = await resolve(undefined, direction > 0 ? 'Next Iteration after' : 'Previous Iteration before');
    if (typeof r === 'string') return r;
    const records = await readIterationRecords(r.dir.run(r.ref.run).iterationsFile);
    const next = stepIteration(
      records.map((x) => x.iteration),
      r.ref.iteration,
      direction,
    );
    if (next === undefined) return `There is no ${direction > 0 ? 'later' : 'earlier'} iteration in ${r.ref.run}.`;
    await view.show({ run: r.ref.run, iteration: next });
    return undefined;
  };
  const command = (id: string, fn: (target: Target) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (target: Target) => {
      try {
        return await fn(target);
      } catch (err) {
        showError(commandTitle(id), err);
        return undefined;
      }
    });
  const disposables = [
    view,
    registerRevisionContent(() => deps.task()),
    command('sweci.openIteration', async (target) => {
      const r = await resolve(target, 'Open Iteration');
      return typeof r === 'string' ? say(r) : view.show(r.ref);
    }),
    command('sweci.openTestReport', async (target) => {
      const r = await resolve(target, 'Open the Test Report of');
      return typeof r === 'string' ? say(r) : view.show(r.ref, { report: true });
    }),
    command('sweci.nextIteration', async () => say(await step(1))),
    command('sweci.previousIteration', async () => say(await step(-1))),
    command('sweci.openCodeChanges', async (target) => {
      const r = await resolve(target, 'Code Changes of an iteration');
      if (typeof r === 'string') return say(r);
      const opened = await openIterationChanges(r.dir, r.ref);
      return typeof opened === 'string' ? say(opened) : opened;
    }),
    command('sweci.selectForCompare', async (target) => {
      const r = await resolve(target, 'Select an iteration for Compare');
      if (typeof r === 'string') return say(r);
      await view.selectForCompare(r.ref);
      const at = r.ref.iteration === 0 ? vscode.l10n.t('base') : `#${r.ref.iteration}`;
      void messages.showInformationMessage(
        vscode.l10n.t('{0} {1} is selected for Compare: choose Compare with Selected on another iteration (or click it in the status bar).', r.ref.run, at),
      );
      return r.ref;
    }),
    command('sweci.clearCompareSelection', async () => {
      await view.selectForCompare(undefined);
      return undefined;
    }),
    compareSelectionStatus(view.onDidChangeCompareSelection),
    command('sweci.compareWithSelected', async (target) => {
      const r = await resolve(target, 'Compare the selected iteration with');
      if (typeof r === 'string') return say(r);
      const c = await view.compareWithSelected(r.ref);
      return typeof c === 'string' ? say(c) : c;
    }),
  ];
  return { view, disposables };
}
