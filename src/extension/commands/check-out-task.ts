// SWE-CI: Check Out Task… — pick a task (dataset row, two refs of a local repo, or a SWE-bench-
// style instance on a local clone) and a folder, materialise it, run the tests on target and
// base, and open the folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import { checkOutTask, type CheckOutResult } from '../../core/checkout/check-out-task';
import type { TaskEnvironment } from '../../core/runtime/task-environment';
import { listSplits, readDatasetTasks } from '../../core/task/dataset';
import { repoTopLevel, taskFromGitPair } from '../../core/task/git-pair';
import { resolveTask, type TaskSource } from '../../core/task/resolve-task';
import { oracleFolderName } from '../../core/workspace/oracle-name';
import type { TaskSpec } from '../../core/task/task-spec';
import { readSweBenchFile, resolveSweBenchTask, taskFromSweBenchInstance } from '../../core/task/swe-bench-task';
import { oracleRoot, pytestSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TaskController } from '../task-controller';
import type { EnvironmentManager } from '../environment/environment-manager';
import { LAST_DATASET, type DownloadDatasetCommand } from './download-dataset';
import { pickFolder } from './pick-folder';
import { taskFolder, type TaskFolder } from '../../core/workspace/task-folder';

/** Inputs of the command; given as an argument they replace the prompts (tests, scripts, links). */
export type CheckoutArgs = (
  | { source: 'dataset'; datasetDir: string; split?: string; taskId: string }
  | { source: 'git'; repoPath: string; baseRef: string; targetRef: string }
  | { source: 'swe-bench'; instancesFile: string; instanceId?: string; repoPath: string }
) & {
  targetDir: string;
  /** Open the folder when it is not already this window's folder (default true). */
  open?: boolean;
};

const LAST_REPO = 'sweci.lastRepoDir';
const LAST_INSTANCES = 'sweci.lastInstancesFile';
const LAST_CLONE = 'sweci.lastCloneDir';
const LAST_PARENT = 'sweci.lastCheckoutParent';
const VIEW_SHOWN = 'sweci.viewShown';

/**
 * The first time a window opens a task folder, the SWE-CI view comes to the front: a person
 * who just checked a task out should see its gap, not the Explorer.
 */
export async function revealViewOnce(context: vscode.ExtensionContext, task: TaskFolder | undefined): Promise<void> {
  if (!task || context.workspaceState.get<boolean>(VIEW_SHOWN)) return;
  await context.workspaceState.update(VIEW_SHOWN, true);
  await vscode.commands.executeCommand('workbench.view.extension.sweci');
}

export class CheckOutTaskCommand {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly controller: TaskController,
    private readonly environments: EnvironmentManager,
    private readonly downloads: DownloadDatasetCommand,
  ) {}

  async run(args?: CheckoutArgs): Promise<CheckOutResult | undefined> {
    try {
      const chosen = args ? await this.fromArgs(args) : await this.prompt();
      if (!chosen) return undefined;
      return await this.checkOut(chosen.spec, chosen.targetDir, args?.open ?? true);
    } catch (err) {
      showError(vscode.l10n.t('Check out failed'), err);
      if (args) throw err; // programmatic callers want the failure, not only a notification
      return undefined;
    }
  }

  /** Check Out Task… on a dataset folder already chosen (after a download): the task, then the folder. */
  async runFromDataset(datasetDir: string, split: string): Promise<CheckOutResult | undefined> {
    try {
      const spec = await this.pickTaskIn(datasetDir, split);
      const targetDir = spec && (await this.pickTargetDir(spec));
      return spec && targetDir ? await this.checkOut(spec, targetDir, true) : undefined;
    } catch (err) {
      showError(vscode.l10n.t('Check out failed'), err);
      return undefined;
    }
  }

  /**
   * Check Out Task… from two refs already chosen (a curated candidate): the git-pair task, the
   * folder (asked for unless given), then the checkout as the command does it.
   */
  async runGitPair(repoPath: string, baseRef: string, targetRef: string, targetDir?: string): Promise<CheckOutResult | undefined> {
    if (targetDir) return this.run({ source: 'git', repoPath, baseRef, targetRef, targetDir, open: false });
    try {
      const spec = await taskFromGitPair(repoPath, baseRef, targetRef);
      const dir = await this.pickTargetDir(spec);
      return dir ? await this.checkOut(spec, dir, true) : undefined;
    } catch (err) {
      showError(vscode.l10n.t('Check out failed'), err);
      return undefined;
    }
  }

  /**
   * A git pair whose environment was built for it (Build Environment and Check Out): `prepare`
   * runs once the folder is chosen (asked for unless given) and returns the image the checkout
   * then runs its tests in (undefined: it was cancelled or failed, and said so). Errors go to the
   * caller, which reports them.
   */
  async runGitPairInImage(
    repoPath: string,
    baseRef: string,
    targetRef: string,
    prepare: () => Promise<string | undefined>,
    targetDir?: string,
  ): Promise<CheckOutResult | undefined> {
    const spec = await taskFromGitPair(repoPath, baseRef, targetRef);
    const dir = targetDir ? path.resolve(targetDir) : await this.pickTargetDir(spec);
    if (!dir) return undefined;
    const image = await prepare();
    return image ? await this.checkOut(spec, dir, !targetDir, image) : undefined;
  }

  private async fromArgs(args: CheckoutArgs): Promise<{ spec: TaskSpec; targetDir: string }> {
    const targetDir = path.resolve(args.targetDir);
    if (args.source === 'swe-bench') return { spec: await resolveSweBenchTask(args.instancesFile, args.instanceId, { repoPath: args.repoPath }), targetDir };
    const source: TaskSource =
      args.source === 'git'
        ? { kind: 'git', repoPath: args.repoPath, baseRef: args.baseRef, targetRef: args.targetRef }
        : { kind: 'dataset', datasetDir: args.datasetDir, split: args.split, taskId: args.taskId };
    return { spec: await resolveTask(source), targetDir };
  }

  private async prompt(): Promise<{ spec: TaskSpec; targetDir: string } | undefined> {
    const download = {
      label: `$(cloud-download) ${vscode.l10n.t('Download SWE-CI from the Hugging Face Hub…')}`,
      detail: vscode.l10n.t('the paper\u2019s tasks, or the ones you pick, into a folder of your choice (resumable)'),
      id: 'download' as const,
    };
    // No dataset seen yet: getting one is the likely first step, so it comes first.
    const known = this.context.globalState.get<string>(LAST_DATASET) !== undefined;
    const source = await vscode.window.showQuickPick(
      [
        ...(known ? [] : [download]),
        {
          label: `$(database) ${vscode.l10n.t('From a SWE-CI dataset folder…')}`,
          detail: vscode.l10n.t('metadata/<split>.csv and data/<task_id>/code.zip'),
          id: 'dataset' as const,
        },
        {
          label: `$(git-commit) ${vscode.l10n.t('From two refs of a local git repository…')}`,
          detail: vscode.l10n.t('the base and the target commit of your own code'),
          id: 'git' as const,
        },
        {
          label: `$(beaker) ${vscode.l10n.t('A SWE-bench-style instance…')}`,
          detail: vscode.l10n.t('an instances file (.json or .jsonl) and a local clone of its repository'),
          id: 'swe-bench' as const,
        },
        ...(known ? [download] : []),
      ],
      { title: vscode.l10n.t('SWE-CI: Check Out Task'), placeHolder: vscode.l10n.t('Where does the task come from?') },
    );
    if (!source) return undefined;
    const spec =
      source.id === 'download'
        ? await this.downloadThenPick()
        : source.id === 'dataset'
          ? await this.pickDatasetTask()
          : source.id === 'git'
            ? await this.pickGitPair()
            : await this.pickInstance();
    if (!spec) return undefined;
    const targetDir = await this.pickTargetDir(spec);
    return targetDir ? { spec, targetDir } : undefined;
  }

  private async pickDatasetTask(): Promise<TaskSpec | undefined> {
    const chosen = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose a SWE-CI dataset folder (it holds metadata/ and data/)'),
      openLabel: vscode.l10n.t('Use Dataset'),
      lastKey: LAST_DATASET,
      check: (dir) => listSplits(dir),
    });
    if (!chosen) return undefined;
    const { dir: datasetDir, value: splits } = chosen;
    const split = splits.length === 1 ? splits[0] : await vscode.window.showQuickPick(splits, { title: vscode.l10n.t('Which split?') });
    return split ? this.pickTaskIn(datasetDir, split) : undefined;
  }

  /** Download Dataset…, then the task picker on what it fetched. */
  private async downloadThenPick(): Promise<TaskSpec | undefined> {
    const result = await this.downloads.run();
    return result ? this.pickTaskIn(result.datasetDir, result.split) : undefined;
  }

  private async pickTaskIn(datasetDir: string, split: string): Promise<TaskSpec | undefined> {
    const tasks = await readDatasetTasks(datasetDir, split);
    await this.context.globalState.update(LAST_DATASET, datasetDir);
    const item = await vscode.window.showQuickPick(
      tasks.map((task) => ({
        label: task.id,
        description: task.repo,
        detail: describeTask(task),
        task,
      })),
      {
        title:
          tasks.length === 1
            ? vscode.l10n.t('SWE-CI: 1 task in {0} ({1})', path.basename(datasetDir), split)
            : vscode.l10n.t('SWE-CI: {0} tasks in {1} ({2})', tasks.length, path.basename(datasetDir), split),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
    return item?.task;
  }

  private async pickGitPair(): Promise<TaskSpec | undefined> {
    const chosen = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose a local git repository'),
      openLabel: vscode.l10n.t('Use Repository'),
      lastKey: LAST_REPO,
      check: (dir) => repoTopLevel(dir),
    });
    if (!chosen) return undefined;
    const repoPath = chosen.value;
    const baseRef = await vscode.window.showInputBox({
      title: vscode.l10n.t('Base ref (the code the agent starts from)'),
      prompt: vscode.l10n.t('A branch, tag or commit sha, e.g. v1.2.0 or HEAD~10'),
    });
    if (!baseRef) return undefined;
    const targetRef = await vscode.window.showInputBox({
      title: vscode.l10n.t('Target ref (its tests are the yardstick)'),
      value: 'HEAD',
    });
    if (!targetRef) return undefined;
    return taskFromGitPair(repoPath, baseRef.trim(), targetRef.trim());
  }

  private async pickInstance(): Promise<TaskSpec | undefined> {
    const chosen = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose a SWE-bench-style instances file'),
      openLabel: vscode.l10n.t('Use Instances'),
      lastKey: LAST_INSTANCES,
      files: { [vscode.l10n.t('Instances (JSON, JSON Lines)')]: ['json', 'jsonl'] },
      check: (f) => readSweBenchFile(f),
    });
    if (!chosen) return undefined;
    const { dir: file, value: instances } = chosen;
    const item =
      instances.length === 1
        ? { instance: instances[0] }
        : await vscode.window.showQuickPick(
            instances.map((instance) => ({
              label: instance.instanceId,
              description: instance.repo,
              detail: vscode.l10n.t(
                'base {0} · {1} to fix · {2} to keep',
                instance.baseCommit.slice(0, 7),
                testCount(instance.failToPass.length),
                testCount(instance.passToPass.length),
              ),
              instance,
            })),
            {
              title:
                instances.length === 1
                  ? vscode.l10n.t('SWE-CI: 1 instance in {0}', path.basename(file))
                  : vscode.l10n.t('SWE-CI: {0} instances in {1}', instances.length, path.basename(file)),
              matchOnDescription: true,
              matchOnDetail: true,
            },
          );
    if (!item) return undefined;
    const clone = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose the local clone of {0}', item.instance.repo),
      openLabel: vscode.l10n.t('Use Clone'),
      lastKey: LAST_CLONE,
      check: (dir) => taskFromSweBenchInstance(item.instance, file, { repoPath: dir }),
    });
    return clone?.value;
  }

  private async pickTargetDir(spec: TaskSpec): Promise<string | undefined> {
    const current = vscode.workspace.workspaceFolders?.[0]?.uri;
    const items: (vscode.QuickPickItem & { dir?: string })[] = [];
    if (current?.scheme === 'file' && isEmptyDir(current.fsPath)) {
      items.push({ label: `$(folder-opened) ${vscode.l10n.t("This window's folder")}`, description: current.fsPath, dir: current.fsPath });
    }
    items.push({ label: `$(new-folder) ${vscode.l10n.t('Choose a parent folder…')}`, description: vscode.l10n.t('creates <parent>/{0}', spec.id) });
    const choice = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Check the task out into…') });
    if (!choice) return undefined;
    if (choice.dir) return choice.dir;
    const parent = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose where to create the folder {0}', spec.id),
      openLabel: vscode.l10n.t('Check Out Here'),
      lastKey: LAST_PARENT,
      check: (dir) => Promise.resolve(dir),
    });
    return parent ? path.join(parent.dir, spec.id) : undefined;
  }

  private async checkOut(spec: TaskSpec, targetDir: string, open: boolean, image?: string): Promise<CheckOutResult> {
    const task = taskFolder(targetDir);
    const settings = pytestSettings();
    // Tests execute the task's code: only in a trusted window (a new folder opens under its own trust).
    const runTests = vscode.workspace.isTrusted;
    const oracleDir = path.join(oracleRoot(this.context), oracleFolderName(spec.id, targetDir));
    log().info(`Checking out ${spec.id} into ${targetDir} (oracle ${oracleDir})`);
    let env: TaskEnvironment | undefined;
    let result: CheckOutResult;
    try {
      result = await withCancellableProgress(vscode.l10n.t('SWE-CI: checking out {0}', spec.id), async ({ report, signal }) => {
        // Where the tests will run: loading the task's image comes first (only when tests run).
        if (runTests) env = await this.environments.forSpec(spec, { signal, report }, image);
        return checkOutTask(spec, {
          ...settings,
          python: env?.python ?? settings.python,
          task,
          oracleDir,
          runtime: env?.tests,
          environment: env?.record,
          runTests,
          signal,
          onProgress: (message) => {
            log().info(message);
            report(message);
          },
          onOutput: (chunk) => log().trace(chunk.trimEnd()),
        });
      });
    } catch (err) {
      await env?.dispose();
      throw err;
    }
    this.announce(spec, result, runTests);
    const isThisWindow = vscode.workspace.workspaceFolders?.some((f) => f.uri.fsPath === targetDir);
    if (isThisWindow && env) this.environments.adopt(task, env);
    else await env?.dispose();
    if (isThisWindow) {
      await this.controller.reload();
      await revealViewOnce(this.context, this.controller.task());
    } else if (open) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(targetDir));
    return result;
  }

  private announce(spec: TaskSpec, result: CheckOutResult, ranTests: boolean): void {
    if (!ranTests) {
      void messages.showWarningMessage(
        vscode.l10n.t('Checked out {0} without running tests: this window is not trusted. Trust the task folder and run SWE-CI: Run Tests.', spec.id),
      );
      return;
    }
    const run = result.current?.run;
    if (run?.kind === 'did-not-run') {
      void messages.showWarningMessage(vscode.l10n.t('Checked out {0}, but pytest did not run on the base. {1}', spec.id, String(run.reason)));
    } else {
      log().info(`Checked out ${spec.id}: gap ${result.current?.gap}`);
    }
    if (result.gapMismatch) {
      const { expected, measured } = result.gapMismatch;
      log().warn(`The dataset expects a gap of ${expected} for ${spec.id}; this machine measured ${measured}.`);
      void messages.showWarningMessage(
        vscode.l10n.t(
          "{0}: the dataset expects {1} non-passed tests, this machine found {2}. The Python environment may differ from the task's.",
          spec.id,
          expected,
          measured,
        ),
      );
    }
  }
}

function describeTask(task: TaskSpec): string {
  const short = (sha: string) => sha.slice(0, 7);
  const when = (d?: string) => (d ? ` (${d.slice(0, 10)})` : '');
  if (task.source.kind === 'swe-bench') {
    const { failToPass, passToPass } = task.source.instance;
    return vscode.l10n.t('base {0} · {1} to fix · {2} to keep', short(task.baseSha), testCount(failToPass.length), testCount(passToPass.length));
  }
  const gap = task.expectedGap !== undefined ? ` · ${vscode.l10n.t('expected gap {0}', task.expectedGap)}` : '';
  return vscode.l10n.t('base {0} → target {1}', short(task.baseSha) + when(task.baseDate), short(task.targetSha) + when(task.targetDate)) + gap;
}

function isEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}

/** '1 test', '3 tests' in the display language. */
function testCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 test') : vscode.l10n.t('{0} tests', n);
}
