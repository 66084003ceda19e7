// Test Explorer for the open task: items from the current report plus the target's (so tests
// the current code does not collect are listed), the results of every current-code run, and a
// Run profile that runs the chosen tests in the task's environment.
import * as vscode from 'vscode';
import { runSelectedTests } from '../../core/checkout/run-selected-tests';
import type { TaskState } from '../../core/checkout/task-state';
import { testResults, type TestResult } from '../../core/gap/test-results';
import { buildTestTree } from '../../core/pytest/test-tree';
import { pytestSettings } from '../config';
import type { EnvironmentManager } from '../environment/environment-manager';
import { log } from '../log';
import type { TaskController } from '../task-controller';
import { requireTrust } from '../trust';
import { indexItems, leaves, syncItems } from './test-items';
import { applyResults, terminalText, type PublishedResult } from './test-results';
import { errorMessage } from '../../core/util/errors';

/** One item as the integration tests read it: `line` is 1-based, as the editor shows it. */
export interface TestItemRow {
  id: string;
  label: string;
  uri?: string;
  line?: number;
  children: TestItemRow[];
}

export class SweciTesting implements vscode.Disposable {
  private readonly ctrl = vscode.tests.createTestController('sweci', 'SWE-CI');
  readonly runProfile: vscode.TestRunProfile;
  private readonly disposables: vscode.Disposable[] = [this.ctrl];
  /** The run whose results were last put in Test Explorer, by `finishedAt` of its record. */
  private publishedRun: string | undefined;
  private runningAll = false;
  private readonly publishedEmitter = new vscode.EventEmitter<PublishedResult[]>();
  /** The results each run put in Test Explorer (a current-code run or a profile run). */
  readonly onDidPublish = this.publishedEmitter.event;

  constructor(
    private readonly controller: TaskController,
    private readonly environments: EnvironmentManager,
  ) {
    this.runProfile = this.ctrl.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true);
    // The items come from the reports on disk: refreshing re-reads them (Run All runs pytest).
    this.ctrl.refreshHandler = async () => {
      await this.controller.reload();
    };
    this.disposables.push(
      this.publishedEmitter,
      controller.onDidChange((state) => this.update(state)),
    );
    this.update(controller.current);
  }

  /** The items as Test Explorer holds them. */
  rows(): TestItemRow[] {
    const row = (item: vscode.TestItem): TestItemRow => {
      const children: TestItemRow[] = [];
      item.children.forEach((c) => void children.push(row(c)));
      return {
        id: item.id,
        label: item.label,
        ...(item.uri ? { uri: item.uri.fsPath } : {}),
        ...(item.range ? { line: item.range.start.line + 1 } : {}),
        children,
      };
    };
    const out: TestItemRow[] = [];
    this.ctrl.items.forEach((item) => void out.push(row(item)));
    return out;
  }

  /**
   * Runs `ids` through the Run profile, as Test Explorer's Run on those items does; without ids,
   * as Run All does.
   */
  async runIds(ids?: readonly string[], token?: vscode.CancellationToken): Promise<void> {
    const byId = indexItems(this.ctrl.items);
    const include = ids?.map((id) => {
      const item = byId.get(id);
      if (!item) throw new Error(`Test Explorer has no item ${id}`);
      return item;
    });
    const source = token ? undefined : new vscode.CancellationTokenSource();
    try {
      await this.runProfile.runHandler(new vscode.TestRunRequest(include, undefined, this.runProfile), token ?? source!.token);
    } finally {
      source?.dispose();
    }
  }

  private update(state: TaskState | undefined): void {
    if (!state) {
      this.ctrl.items.replace([]);
      this.publishedRun = undefined;
      return;
    }
    const codeDir = state.task.codeDir;
    syncItems(this.ctrl, this.ctrl.items, buildTestTree([state.current, state.target]), codeDir);
    const key = state.lastRun?.finishedAt;
    if (!state.current || key === this.publishedRun) return;
    this.publishedRun = key;
    // Run All's handler reports this run in its own TestRun. A run that did not happen left the
    // previous report, whose results are already shown (the Non-passed view says it is older).
    if (this.runningAll || state.lastRun?.kind === 'did-not-run') return;
    const run = this.ctrl.createTestRun(new vscode.TestRunRequest(), 'pytest on the current code', false);
    this.publish(run, this.currentResults(state), codeDir);
    run.end();
  }

  private currentResults(state: TaskState): TestResult[] {
    if (!state.current) return [];
    return testResults(state.current, { target: state.target, codeDir: state.task.codeDir });
  }

  private publish(run: vscode.TestRun, results: readonly TestResult[], codeDir: string): void {
    this.publishedEmitter.fire(applyResults(run, indexItems(this.ctrl.items), results, codeDir));
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const state = this.controller.current;
    if (!state || !requireTrust('run the tests')) return;
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    const run = this.ctrl.createTestRun(request, undefined, false);
    try {
      if (!request.include && !request.exclude?.length) await this.runAll(run, abort.signal);
      else await this.runSome(run, request, state, abort.signal);
    } catch (err) {
      log().error(`Test Explorer's run failed: ${errorMessage(err)}`);
      run.appendOutput(terminalText(`${errorMessage(err)}\n`));
    } finally {
      sub.dispose();
      run.end();
    }
  }

  /** Everything: the task's own full run, which records the current report (the task's state). */
  private async runAll(run: vscode.TestRun, signal: AbortSignal): Promise<void> {
    this.runningAll = true;
    try {
      await this.controller.runTests(signal);
    } finally {
      this.runningAll = false;
    }
    const state = this.controller.current;
    if (!state || signal.aborted) return;
    const notRun = state.lastRun?.kind === 'did-not-run' ? (state.lastRun.reason ?? 'pytest did not run.') : undefined;
    if (notRun) {
      // The report on disk is the previous run's: this run has no results to show.
      const tests = leaves(gather(this.ctrl.items));
      for (const t of tests) run.errored(t, new vscode.TestMessage(notRun));
      this.publishedEmitter.fire(tests.map((t) => ({ id: t.id, state: 'errored', message: notRun })));
      return;
    }
    this.publish(run, this.currentResults(state), state.task.codeDir);
  }

  /**
   * Some tests: pytest on their node ids, in the environment the task's runs use. The report is
   * shown here only; the recorded current report stays the last full run's.
   */
  private async runSome(run: vscode.TestRun, request: vscode.TestRunRequest, state: TaskState, signal: AbortSignal): Promise<void> {
    const excluded = new Set(leaves(request.exclude ?? []).map((i) => i.id));
    const chosen = request.include ?? gather(this.ctrl.items);
    const tests = leaves(chosen).filter((i) => !excluded.has(i.id));
    if (tests.length === 0) return;
    // Whole items when nothing is excluded (pytest expands a file or a class itself), else each test.
    const nodeIds = excluded.size === 0 ? outermost(chosen).map((i) => i.id) : tests.map((i) => i.id);
    for (const t of tests) run.started(t);
    const codeDir = state.task.codeDir;
    const failAll = (outcome: 'errored' | 'skipped', reason: string) => {
      for (const t of tests) {
        if (outcome === 'skipped') run.skipped(t);
        else run.errored(t, new vscode.TestMessage(reason));
      }
      this.publishedEmitter.fire(tests.map((t) => ({ id: t.id, state: outcome, message: reason })));
    };
    let result: Awaited<ReturnType<typeof runSelectedTests>>;
    try {
      result = await this.environments.use(state.task, { signal }, (env) =>
        runSelectedTests({
          ...pytestSettings(vscode.Uri.file(state.task.root)),
          python: env.python,
          task: state.task,
          record: state.record,
          runtime: env.tests,
          nodeIds,
          signal,
          onOutput: (chunk) => run.appendOutput(terminalText(chunk)),
        }),
      );
    } catch (err) {
      // E.g. the loop holds the task's lock, or the environment could not start.
      const reason = errorMessage(err);
      failAll(signal.aborted ? 'skipped' : 'errored', reason);
      log().warn(`Test Explorer's run did not run: ${reason}`);
      return;
    }
    if (result.run.kind === 'did-not-run') {
      failAll(result.run.cancelled ? 'skipped' : 'errored', result.run.reason);
      return;
    }
    const results = testResults(result.run.report, { codeDir });
    const reported = new Set(results.map((r) => r.nodeid));
    const missing: TestResult[] = tests
      .filter((t) => !reported.has(t.id))
      .map((t) => ({ nodeid: t.id, state: 'errored', message: 'pytest did not collect this test in this run.' }));
    this.publish(run, [...results, ...missing], codeDir);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function gather(collection: vscode.TestItemCollection): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  collection.forEach((i) => void out.push(i));
  return out;
}

/** Items without an ancestor among the others (pytest would run the ancestor's tests twice). */
function outermost(items: readonly vscode.TestItem[]): vscode.TestItem[] {
  const ids = new Set(items.map((i) => i.id));
  return items.filter((item) => {
    for (let p = item.parent; p; p = p.parent) if (ids.has(p.id)) return false;
    return true;
  });
}

/** Test Explorer for the open task; disposed with the extension. */
export function activateTesting(context: vscode.ExtensionContext, controller: TaskController, environments: EnvironmentManager): SweciTesting {
  const testing = new SweciTesting(controller, environments);
  context.subscriptions.push(testing);
  return testing;
}
