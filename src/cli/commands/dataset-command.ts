// sweci dataset download | verify | info: the SWE-CI dataset from the Hugging Face Hub into a folder
// sweci run and the editor read, and what such a folder holds.
import * as path from 'node:path';
import { plural } from '../../core/util/plural';
import { datasetInfo, forgetBadFiles, requireManifest, verifyDataset } from '../../core/download/dataset-folder';
import { downloadDataset, isTaskComplete, type DownloadHandle } from '../../core/download/download-dataset';
import { acquireFolderLock } from '../../core/download/folder-lock';
import type { HeldLock } from '../../core/records/process-lock';
import { checkRepoId, DEFAULT_REPO, readEndpoint, readToken } from '../../core/download/hub-client';
import { formatBytes } from '../../core/util/free-space';
import { isAbortError, UserError } from '../../core/util/errors';
import { shellQuote } from '../../core/util/shell-quote';
import { summaryLine } from '../../core/download/download-progress';
import { openDownloadDisplay } from '../download-display';

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
  const display = await openDownloadDisplay(values.json === true);
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
        `${plural(result.tasks.length, 'task')} of split ${result.split} in ${result.datasetDir}: fetched ${formatBytes(result.received)}, ${formatBytes(result.skippedBytes)} already verified. ` +
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

export interface VerifyValues extends Record<string, unknown> {
  fix?: boolean;
  endpoint?: string;
  tokenEnv?: string;
  jobs?: string;
  json?: boolean;
}

/** sweci dataset verify: every recorded file hashed; with --fix the bad ones are fetched again. */
export async function datasetVerifyCommand(dir: string, values: VerifyValues, signal: AbortSignal): Promise<number> {
  const datasetDir = path.resolve(dir);
  // --fix removes and fetches files: no download may write there meanwhile (a plain verify only reads).
  if (values.fix) await requireManifest(datasetDir);
  const lock = values.fix ? await acquireFolderLock(datasetDir, `sweci dataset verify --fix ${datasetDir}`) : undefined;
  try {
    return await verifyLocked(dir, datasetDir, values, signal, lock);
  } finally {
    await lock?.release();
  }
}

async function verifyLocked(dir: string, datasetDir: string, values: VerifyValues, signal: AbortSignal, lock: HeldLock | undefined): Promise<number> {
  const result = await verifyDataset(datasetDir, signal, (p, bad) => {
    if (values.json)
      process.stdout.write(JSON.stringify({ type: 'file', path: p, ok: !bad, ...(bad ? { problem: bad.problem, detail: bad.detail } : {}) }) + '\n');
    else if (bad) process.stderr.write(`bad: ${p}: ${bad.detail}\n`);
  });
  const incomplete = Object.keys(result.manifest.tasks).filter((id) => !isTaskComplete(result.manifest, id));
  if (!values.json) {
    console.log(
      `${result.checked - result.bad.length} of ${plural(result.checked, 'file')} match the Hub's hashes (${formatBytes(result.bytes)} read)` +
        (incomplete.length > 0 ? `; ${plural(incomplete.length, 'task')} not fully downloaded yet` : ''),
    );
  }
  if (result.bad.length === 0) return 0;
  if (!values.fix) {
    if (!values.json) console.log(`Run sweci dataset verify ${shellQuote(dir)} --fix to fetch the ${plural(result.bad.length, 'bad file')} again.`);
    return 1;
  }
  await forgetBadFiles(datasetDir, result);
  const m = result.manifest;
  const token = readToken(process.env, values.tokenEnv);
  const endpoint = values.endpoint !== undefined || process.env.HF_ENDPOINT ? readEndpoint(process.env, values.endpoint) : m.endpoint;
  const display = await openDownloadDisplay(values.json === true);
  const handle: DownloadHandle = {};
  try {
    for (const [split, s] of Object.entries(m.splits)) {
      for (const images of [true, false]) {
        const tasks = s.tasks.filter((id) => (m.tasks[id]?.images ?? false) === images);
        if (tasks.length === 0) continue;
        await downloadDataset(
          {
            repo: m.repo,
            revision: m.revision,
            endpoint,
            ...token,
            into: datasetDir,
            split,
            tasks,
            images,
            jobs: positiveInt('--jobs', values.jobs, 4),
            lock,
            signal,
            onEvent: (e) => display.event(e, handle.tracker),
          },
          handle,
        );
      }
    }
  } finally {
    display.stop();
  }
  if (!values.json) console.log(`fetched the ${plural(result.bad.length, 'bad file')} again; every file now matches the Hub's hashes.`);
  return 0;
}

/** sweci dataset info: splits, tasks, sizes and what is missing. */
export async function datasetInfoCommand(dir: string, values: { json?: boolean }): Promise<number> {
  const info = await datasetInfo(path.resolve(dir));
  if (values.json) {
    process.stdout.write(JSON.stringify(info, null, 2) + '\n');
    return 0;
  }
  const lines = [
    info.source
      ? `${info.datasetDir}: ${info.source.repo} at ${info.source.revision} from ${info.source.endpoint}`
      : `${info.datasetDir}: a dataset folder sweci did not download`,
  ];
  lines.push(
    `${info.codeZips} code.zip and ${info.images} image.tar.gz, ${formatBytes(info.bytes)}` +
      (info.partialBytes > 0 ? `; ${formatBytes(info.partialBytes)} in partial files (run the download again to finish them)` : ''),
  );
  for (const s of info.splits) {
    const of = info.source ? `${s.asked} of its ${plural(s.rows, 'task')} asked for` : plural(s.rows, 'task');
    lines.push(`split ${s.split}: ${of}, ${s.complete} complete`);
    for (const m of s.missing.slice(0, 10)) lines.push(`  missing ${m.taskId}: ${m.files.join(', ')}`);
    if (s.missing.length > 10) lines.push(`  and ${plural(s.missing.length - 10, 'more task', 'more tasks')} with missing files`);
  }
  console.log(lines.join('\n'));
  return 0;
}
