// What a task is, independent of where it came from.
import type { SweBenchInstance } from './swe-bench-instance';

export interface DatasetTaskSource {
  kind: 'dataset';
  /** Folder holding `metadata/<split>.csv` and `data/<task_id>/code.zip`. */
  datasetDir: string;
  split: string;
  zipPath: string;
  /** `data/<task_id>/image.tar.gz` when present. */
  imagePath?: string;
  /** The CSV row as read, unknown columns included. */
  row: Record<string, string>;
}

export interface GitPairTaskSource {
  kind: 'git';
  /** A local git repository. */
  repoPath: string;
  baseRef: string;
  targetRef: string;
}

/**
 * A SWE-bench-style instance: its repository's local clone, the base commit, and a test patch
 * that makes the "target" (the base with the instance's tests). There is no target commit: the
 * target side is the instance's FAIL_TO_PASS and PASS_TO_PASS lists.
 */
export interface SweBenchTaskSource {
  kind: 'swe-bench';
  /** The local clone of `instance.repo`. */
  repoPath: string;
  /** The JSON or JSONL file the instance was read from. */
  instancesFile: string;
  instance: SweBenchInstance;
}

export interface TaskSpec {
  id: string;
  /** Upstream repository name, when known (e.g. `owner/name`). */
  repo?: string;
  /** Full commit sha of the base (c0). */
  baseSha: string;
  /**
   * Full commit sha of the target / oracle (c*). For a SWE-bench instance, empty until the task is
   * materialised; the record then holds the commit made in the oracle (the base plus the test patch).
   */
  targetSha: string;
  /** The dataset's `test_gap`: expected size of the non-passed set. */
  expectedGap?: number;
  baseDate?: string;
  targetDate?: string;
  source: DatasetTaskSource | GitPairTaskSource | SweBenchTaskSource;
}

/** The task's environment as its dataset ships it (`data/<task_id>/image.tar.gz`), if any. */
export function imageArchiveOf(spec: TaskSpec): string | undefined {
  return spec.source.kind === 'dataset' ? spec.source.imagePath : undefined;
}

/** Where a task's code and history come from, as a user would name it in a message. */
export function sourceLocation(spec: TaskSpec): string {
  return spec.source.kind === 'dataset' ? spec.source.zipPath : spec.source.repoPath;
}
