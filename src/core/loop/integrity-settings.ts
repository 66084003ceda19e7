// sweci.integrity.*: how the loop treats what an agent leaves behind and how scores treat
// iterations whose integrity is in doubt. One parser for the extension's settings and the CLI.
import { readCount, readFlag, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';

export interface IntegritySettings {
  /** Score inflated and tampered iterations at their raw figures, the reference's (default: their honest ones, metrics/scored-line.ts). */
  keepFlagged: boolean;
  /** Score iterations flagged for harness tampering as not run (default: flagged, scored, like the reference). */
  excludeHarnessTampering: boolean;
  /** Score a line's passes among the tests the target passes only (the paper's n(c) over T), not pytest's whole count. */
  scoreTargetTestsOnly: boolean;
  /** Files larger than this (MiB) are flagged and left out of commits and diffs; 0: no limit. */
  maxFileMb: number;
  /** New or changed files of one iteration together (MiB): past it, the largest are flagged and left out; 0: no limit. */
  maxIterationMb: number;
}

export const DEFAULT_MAX_FILE_MB = 50;
export const DEFAULT_MAX_ITERATION_MB = 100;

export function readIntegritySettings(read: SettingReader, label: SettingLabel = settingName): IntegritySettings {
  return {
    keepFlagged: readFlag(read, label, 'integrity.keepFlagged', false),
    excludeHarnessTampering: readFlag(read, label, 'integrity.excludeHarnessTampering', false),
    scoreTargetTestsOnly: readFlag(read, label, 'integrity.scoreTargetTestsOnly', false),
    maxFileMb: readCount(read, label, 'integrity.maxFileMb', DEFAULT_MAX_FILE_MB, 'MiB'),
    maxIterationMb: readCount(read, label, 'integrity.maxIterationMb', DEFAULT_MAX_ITERATION_MB, 'MiB'),
  };
}
