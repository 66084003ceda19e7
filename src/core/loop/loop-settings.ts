// sweci.loop.* and sweci.history.*: how long a run goes and how much human history is replayed.
// One parser for the extension's settings and the CLI.
import { readCount, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { DEFAULT_MAX_ITERATIONS } from './run-store';

/** Commits after the base that Record Human History replays (sweci.history.commits). */
export const DEFAULT_HISTORY_COMMITS = 20;

export interface LoopSettings {
  /** Iterations a new run may take (the reference's 20). */
  maxIterations: number;
  /** Commits after the base the human-history replay runs: N evenly spaced, or every one. */
  historyCommits: number | 'all';
  historyTimeoutMs: number;
}

export function readLoopSettings(read: SettingReader, label: SettingLabel = settingName): LoopSettings {
  const commits = Math.floor(readCount(read, label, 'history.commits', DEFAULT_HISTORY_COMMITS, 'commits'));
  return {
    maxIterations: Math.floor(readCount(read, label, 'loop.maxIterations', DEFAULT_MAX_ITERATIONS, 'iterations', 1)),
    historyCommits: commits > 0 ? commits : 'all',
    historyTimeoutMs: readCount(read, label, 'history.timeoutSeconds', 3600, 'seconds', 1) * 1000,
  };
}
