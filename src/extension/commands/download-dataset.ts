// SWE-CI: Download Dataset… — the benchmark from the Hugging Face Hub into a folder, as
// `sweci dataset download` does it (resumable, verified, only the chosen tasks): pick a split,
// the tasks, whether to fetch their images and a folder; then a cancellable progress with bytes,
// rate and ETA. The folder becomes the dataset Check Out Task… lists.
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import { claimFolder, downloadDataset, type DownloadEvent, type DownloadHandle, type DownloadResult } from '../../core/download/download-dataset';
import { formatEta, percent } from '../../core/download/download-progress';
import { HubAccessError, HubClient, type HubTarget } from '../../core/download/hub-client';
import { listRemoteSplits, readRemoteSplit, type RemoteTask } from '../../core/download/remote-split';
import { formatBytes } from '../../core/util/free-space';
import { isAbortError } from '../../core/util/errors';
import { hubSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import { plural } from './checkout-choices';
import { setTokenCommand, type HubToken } from './hub-token';
import { pickFolder } from './pick-folder';

/** Inputs of the command; given as an argument they replace the prompts (tests, scripts, links). */
export interface DownloadArgs {
  into: string;
  split?: string;
  /** Task ids; default every task of the split. */
  tasks?: string[];
  /** Fetch the tasks' image.tar.gz too (default true). */
  images?: boolean;
}

/** The folder a dataset was downloaded into last: Check Out Task… starts there. */
export const LAST_DATASET = 'sweci.lastDatasetDir';
const LAST_DOWNLOAD = 'sweci.lastDownloadDir';
const DOWNLOAD_JOBS = 4;

export class DownloadDatasetCommand {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly token: HubToken,
  ) {}

  /** The finished download, or undefined when the user stopped, cancelled or it failed (args: it throws). */
  async run(args?: DownloadArgs): Promise<DownloadResult | undefined> {
    let target: HubTarget | undefined;
    try {
      target = await this.target();
      const choice = args ? { ...args, into: path.resolve(args.into), images: args.images ?? true } : await this.prompt(target);
      if (!choice) return undefined;
      return await this.download(target, choice);
    } catch (err) {
      if (isAbortError(err)) {
        log().info('Download Dataset: stopped');
        return undefined;
      }
      if (err instanceof HubAccessError && !args) {
        this.offerToken(err);
        return undefined;
      }
      showError(vscode.l10n.t('Download failed'), err);
      if (args) throw err;
      return undefined;
    }
  }

  private async target(): Promise<HubTarget> {
    return { ...hubSettings(), ...(await this.token.current()), tokenHelp: vscode.l10n.t('store it with {0}', setTokenCommand()) };
  }

  private offerToken(err: HubAccessError): void {
    log().error(`Download failed: ${err.message}`);
    void messages.showErrorMessage(vscode.l10n.t('Download failed: {0}', err.message), setTokenCommand()).then(async (choice) => {
      if (choice && (await this.token.promptSet())) await vscode.commands.executeCommand('sweci.downloadDataset');
    });
  }

  private async prompt(target: HubTarget): Promise<Required<DownloadArgs> | undefined> {
    const where = vscode.l10n.t('{0} on {1}', target.repo, new URL(target.endpoint).host);
    const splits = await withCancellableProgress(vscode.l10n.t('SWE-CI: reading {0}', where), ({ signal }) =>
      listRemoteSplits(new HubClient(target, { signal })),
    );
    const split =
      splits.length === 1
        ? splits[0]
        : await vscode.window.showQuickPick(splits, {
            title: vscode.l10n.t('SWE-CI: which split of {0}?', target.repo),
            placeHolder: vscode.l10n.t('default is the paper\u2019s 100 tasks'),
          });
    if (!split) return undefined;
    // The split's CSV and the sizes of its tasks' files: a few requests, seconds on a slow link.
    const remote = await withCancellableProgress(vscode.l10n.t('SWE-CI: reading split {0} of {1}', split, where), ({ report, signal }) =>
      readRemoteSplit(new HubClient(target, { signal }), split, report),
    );
    const tasks = await this.pickTasks(target, split, remote.tasks);
    if (!tasks) return undefined;
    const images = await this.pickImages(tasks);
    if (images === undefined) return undefined;
    const folder = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose the folder for {0} of {1} (an empty one, or an earlier download to continue it)', taskCount(tasks.length), target.repo),
      openLabel: vscode.l10n.t('Download Here'),
      lastKey: LAST_DOWNLOAD,
      check: (dir) => claimFolder(dir, target),
    });
    if (!folder) return undefined;
    return { into: folder.dir, split, tasks: tasks.map((t) => t.row.taskId), images };
  }

  private async pickTasks(target: HubTarget, split: string, tasks: RemoteTask[]): Promise<RemoteTask[] | undefined> {
    const all = tasks.reduce((n, t) => n + t.codeBytes + (t.imageBytes ?? 0), 0);
    const picked = await vscode.window.showQuickPick(
      tasks.map((task) => ({
        label: task.row.taskId,
        description: task.repo,
        detail: describeSize(task),
        task,
      })),
      {
        title: vscode.l10n.t('SWE-CI: which tasks of {0} ({1})? {2}, {3} with images', target.repo, split, taskCount(tasks.length), formatBytes(all)),
        placeHolder: vscode.l10n.t('Tick the tasks to download (the box at the top ticks them all)'),
        canPickMany: true,
        matchOnDescription: true,
        matchOnDetail: true,
        ignoreFocusOut: true,
      },
    );
    return picked && picked.length > 0 ? picked.map((p) => p.task) : undefined;
  }

  private async pickImages(tasks: RemoteTask[]): Promise<boolean | undefined> {
    const code = tasks.reduce((n, t) => n + t.codeBytes, 0);
    const images = tasks.reduce((n, t) => n + (t.imageBytes ?? 0), 0);
    if (images === 0) return false;
    const choice = await vscode.window.showQuickPick(
      [
        {
          label: `$(package) ${vscode.l10n.t('Code and task images')}`,
          description: formatBytes(code + images),
          detail: vscode.l10n.t('Each task\u2019s tests run in its own Docker image, as in the paper (needs a Docker engine).'),
          images: true,
        },
        {
          label: `$(file-zip) ${vscode.l10n.t('Code only')}`,
          description: formatBytes(code),
          detail: vscode.l10n.t('Tests run with this machine\u2019s Python or the image in sweci.docker.image; images can be fetched later.'),
          images: false,
        },
      ],
      { title: vscode.l10n.t('SWE-CI: fetch the images of {0} too?', taskCount(tasks.length)) },
    );
    return choice?.images;
  }

  private async download(target: HubTarget, choice: Required<Pick<DownloadArgs, 'into' | 'images'>> & DownloadArgs): Promise<DownloadResult> {
    const handle: DownloadHandle = {};
    const what = choice.tasks ? taskCount(choice.tasks.length) : vscode.l10n.t('split {0}', choice.split ?? 'default');
    log().info(`Downloading ${what} of ${target.repo}@${target.revision} from ${target.endpoint} into ${choice.into}`);
    let result: DownloadResult;
    try {
      result = await withCancellableProgress(vscode.l10n.t('SWE-CI: downloading {0}', what), async ({ report, signal }) => {
        const show = progressReporter(report, handle);
        return downloadDataset(
          {
            ...target,
            into: choice.into,
            split: choice.split ?? 'default',
            ...(choice.tasks ? { tasks: choice.tasks } : {}),
            images: choice.images,
            jobs: DOWNLOAD_JOBS,
            signal,
            onEvent: show,
          },
          handle,
        );
      });
    } catch (err) {
      if (isAbortError(err)) {
        const kept = handle.tracker?.snapshot().done;
        void messages.showInformationMessage(
          (kept !== undefined ? vscode.l10n.t('Download stopped with {0} on disk.', formatBytes(kept)) : vscode.l10n.t('Download stopped.')) +
            ' ' +
            vscode.l10n.t('Run SWE-CI: Download Dataset… into {0} again to continue where it stopped.', choice.into),
        );
      }
      throw err;
    }
    await this.context.globalState.update(LAST_DATASET, result.datasetDir);
    log().info(
      `Downloaded ${plural(result.tasks.length, 'task')} into ${result.datasetDir}: fetched ${result.received} bytes, ${result.skippedBytes} already verified`,
    );
    return result;
  }
}

/** Turns the download's events into the notification's message and bar (at most twice a second). */
function progressReporter(report: (message: string, fraction?: number) => void, handle: DownloadHandle): (e: DownloadEvent) => void {
  let last = 0;
  return (e) => {
    if (e.type === 'plan') {
      log().info(`${plural(e.tasks, 'task')}, ${plural(e.files, 'file')}, ${e.totalBytes} bytes: ${e.haveBytes} verified already, ${e.needBytes} to fetch`);
      report(`${formatBytes(e.needBytes)} to fetch, ${formatBytes(e.haveBytes)} already here`, e.totalBytes > 0 ? e.haveBytes / e.totalBytes : 1);
      return;
    }
    if (e.type === 'retry' || e.type === 'mismatch' || e.type === 'warning') log().warn(JSON.stringify(e));
    if (e.type === 'task-ready') log().info(`${e.taskId} is ready`);
    const tracker = handle.tracker;
    const now = Date.now();
    if (!tracker || (e.type === 'bytes' && now - last < 500)) return;
    last = now;
    const p = tracker.snapshot();
    const current = p.active[0] ? ` · ${p.active[0].path.replace(/^data\//, '')}` : '';
    report(
      `${percent(p.done, p.total)} · ${formatBytes(p.done)} of ${formatBytes(p.total)} · ${formatBytes(p.rate)}/s · ${formatEta(p.etaSeconds)} left${current}`,
      p.total > 0 ? p.done / p.total : 1,
    );
  };
}

function describeSize(task: RemoteTask): string {
  const code = `code ${formatBytes(task.codeBytes)}`;
  return task.imageBytes !== undefined ? `${code} · image ${formatBytes(task.imageBytes)}` : `${code} · no image`;
}

/** What a finished download did, in one sentence. */
export function downloadedLine(r: DownloadResult): string {
  return (
    `Downloaded ${plural(r.tasks.length, 'task')} of split ${r.split} into ${r.datasetDir}: ` +
    `fetched ${formatBytes(r.received)}, ${formatBytes(r.skippedBytes)} already verified.`
  );
}

/** '1 task', '3 tasks' in the display language. */
function taskCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 task') : vscode.l10n.t('{0} tasks', n);
}
