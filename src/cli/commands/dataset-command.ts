// sweci dataset download | verify | info: the SWE-CI dataset from the Hugging Face Hub into a folder
// sweci run and the editor read, and what such a folder holds.
import { downloadDataset, type DownloadHandle } from '../../core/download/download-dataset';
import { checkRepoId, DEFAULT_REPO, readEndpoint, readToken } from '../../core/download/hub-client';
import { formatBytes } from '../../core/util/free-space';
import { isAbortError, UserError } from '../../core/util/errors';
import { shellQuote } from '../../core/util/shell-quote';
import { openDownloadDisplay, summaryLine } from '../download-display';

export interface DownloadValues extends Record<string, unknown> {
  repo?: string;
  revision?: string;
  split?: string;
  tasks?: string;
  first?: string;
  into?: string;
  images?: boolean;
  jobs?: string;
  endpoint?: string;
  tokenEnv?: string;
  update?: boolean;
  json?: boolean;
}

function positiveInt(flag: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) throw new UserError(`${flag} takes a whole number of ${min} or more, not "${text}".`);
  return n;
}

/** The task ids of --tasks: separated by commas, blanks dropped, each once. */
export function parseTaskList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const ids = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (ids.length === 0) throw new UserError('--tasks names no task. Give task ids separated by commas.');
  return ids;
}

export async function datasetDownloadCommand(values: DownloadValues, signal: AbortSignal): Promise<number> {
  if (!values.into) throw new UserError('sweci dataset download needs --into <dir>: the folder the dataset goes to (created if missing).');
  if (values.tasks !== undefined && values.first !== undefined) throw new UserError('Give --tasks or --first, not both.');
  const repo = checkRepoId(values.repo ?? DEFAULT_REPO);
  const endpoint = readEndpoint(process.env, values.endpoint);
  const token = readToken(process.env, values.tokenEnv);
  const display = openDownloadDisplay(values.json === true);
  const handle: DownloadHandle = {};
  try {
    const result = await downloadDataset(
      {
        repo,
        revision: values.revision ?? 'main',
        endpoint,
        ...token,
        into: values.into,
        split: values.split ?? 'default',
        tasks: parseTaskList(values.tasks),
        ...(values.first !== undefined ? { first: positiveInt('--first', values.first, 1) } : {}),
        images: values.images !== false,
        jobs: positiveInt('--jobs', values.jobs, 4),
        update: values.update === true,
        signal,
        onEvent: (e) => display.event(e, handle.tracker),
      },
      handle,
    );
    display.stop();
    if (values.json) {
      process.stdout.write(
        JSON.stringify({
          type: 'done',
          datasetDir: result.datasetDir,
          split: result.split,
          tasks: result.tasks,
          files: result.files,
          received: result.received,
          skippedBytes: result.skippedBytes,
        }) + '\n',
      );
    } else {
      process.stderr.write(`${summaryLine(result.tracker.snapshot())}\n`);
      console.log(
        `${result.tasks.length} task(s) of split ${result.split} in ${result.datasetDir}: fetched ${formatBytes(result.received)}, ${formatBytes(result.skippedBytes)} already verified. ` +
          `Run them with: sweci run --dataset ${shellQuote(result.datasetDir)} --split ${result.split}`,
      );
    }
    return 0;
  } catch (err) {
    display.stop();
    if (isAbortError(err) || signal.aborted) {
      const kept = handle.tracker?.snapshot().done;
      process.stderr.write(
        `stopped${kept !== undefined ? ` with ${formatBytes(kept)} on disk` : ''}; run the same command again to continue where it stopped.\n`,
      );
      return 130;
    }
    throw err;
  }
}
