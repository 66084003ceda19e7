// Writes non-passed/ (summary.jsonl + one detail file per test that ran) so that a reader
// (an agent, the tree view) never sees a half-written folder: everything goes into a hidden
// sibling folder first, which then replaces the old one by rename. Between the two renames
// the folder is briefly absent; it is never partial.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestReport } from '../pytest/test-report';
import { discard } from '../util/discard';
import { detailContent } from './detail-content';
import { indexById } from './non-passed';
import { buildSummary } from './summary';

export interface WriteNonPassedOptions {
  /** The folder as the agent sees it, used in descriptions (`/app/non-passed` in a container); default `dir`. */
  shownDir?: string;
  /** A harness folder on the same file system: the old folder goes there and is deleted in the background (util/discard.ts). */
  discardDir?: string;
}

export interface NonPassedWritten {
  summaryFile: string;
  /** Size of the non-passed set (the gap). */
  count: number;
  /** Absolute paths of the detail files written. */
  detailFiles: string[];
}

/** Detail files written at once; bounded so 50k tests don't exhaust file handles. */
const WRITE_CONCURRENCY = 64;

export async function writeNonPassed(
  dir: string,
  current: TestReport | undefined,
  target: TestReport,
  options: WriteNonPassedOptions = {},
): Promise<NonPassedWritten> {
  const finalDir = path.resolve(dir);
  const summary = buildSummary(current, target, { detailDir: options.shownDir ?? finalDir });
  const currentById = indexById(current);
  const parent = path.dirname(finalDir);
  await fs.promises.mkdir(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = path.join(parent, `.${path.basename(finalDir)}.tmp-${tag}`);
  await fs.promises.mkdir(staging);
  try {
    const details = summary.filter((s) => s.detailName !== undefined);
    for (let i = 0; i < details.length; i += WRITE_CONCURRENCY) {
      await Promise.all(
        details.slice(i, i + WRITE_CONCURRENCY).map((s) => {
          const test = currentById.get(s.nodeid);
          return test ? fs.promises.writeFile(path.join(staging, s.detailName as string), detailContent(test), 'utf8') : Promise.resolve();
        }),
      );
    }
    const body = summary.map((s) => s.line + '\n').join('');
    await fs.promises.writeFile(path.join(staging, 'summary.jsonl'), body, 'utf8');
    await swapIn(staging, finalDir, path.join(parent, `.${path.basename(finalDir)}.old-${tag}`), options.discardDir);
    return {
      summaryFile: path.join(finalDir, 'summary.jsonl'),
      count: summary.length,
      detailFiles: details.map((s) => path.join(finalDir, s.detailName as string)),
    };
  } catch (err) {
    await fs.promises.rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/** Replaces `dir` by `staging`; restores the old folder if the second rename fails. */
async function swapIn(staging: string, dir: string, old: string, discardDir?: string): Promise<void> {
  let hadOld = false;
  try {
    await renameWithRetry(dir, old);
    hadOld = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  try {
    await renameWithRetry(staging, dir);
  } catch (err) {
    if (hadOld) await renameWithRetry(old, dir).catch(() => undefined);
    throw err;
  }
  if (hadOld) await discard([old], discardDir);
}

/** Windows refuses to rename a folder while a viewer or a virus scanner holds a file in it. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.promises.rename(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt >= 5 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw err;
      await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
    }
  }
}
