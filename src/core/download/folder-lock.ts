// One writer at a time in a dataset folder. Two downloads into one folder would append to the same
// partial files and rewrite the same manifest; the second one is refused at once, naming the
// process that holds the folder (a wait could last hours behind a 50 GB download, and a refusal
// tells a script what happened). The lock is records/process-lock.ts's, as a task folder's is: a
// dead holder's (kill -9, a reboot, a reused pid) is taken over.
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireLock, type HeldLock, type LockInfo } from '../records/process-lock';
import { UserError } from '../util/errors';
import { stateDir } from './download-manifest';

function lockPath(datasetDir: string): string {
  return path.join(stateDir(datasetDir), 'lock.json');
}

function busyError(datasetDir: string, file: string, h: LockInfo | undefined): UserError {
  if (!h) return new UserError(`Another process is taking ${datasetDir} (${file} is being written). Try again in a moment.`);
  const who = `process ${h.pid} (${h.purpose}), started ${h.started}`;
  if (h.hostname !== os.hostname()) {
    return new UserError(
      `${datasetDir} is in use by ${who} on host ${h.hostname}. Wait for it to finish, then run this again; it continues where that one stopped. ` +
        `If that process is gone (this machine cannot check another host), remove ${file}.`,
    );
  }
  return new UserError(
    `${datasetDir} is in use by ${who}: another download or repair is writing there. Wait for it to finish (or stop it: kill ${h.pid}), ` +
      'then run this again; it continues where that one stopped.',
  );
}

/**
 * Takes the folder for this process, or throws a UserError naming the process that has it.
 * `command` says what this process is doing, for the message another one would show.
 */
export function acquireFolderLock(datasetDir: string, command: string): Promise<HeldLock> {
  return acquireLock(lockPath(datasetDir), command, undefined, (file, holder) => busyError(datasetDir, file, holder));
}
