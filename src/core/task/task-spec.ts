// What a task is, independent of where it came from.
import { z } from 'zod';
import { sweBenchInstanceSchema } from './swe-bench-instance-schema';

// The schemas describe a task as `.sweci/task.json` keeps it; the types come from them.
const nonEmpty = z.string().min(1);

const datasetTaskSourceSchema = z.object({
  kind: z.literal('dataset'),
  /** Folder holding `metadata/<split>.csv` and `data/<task_id>/code.zip`. */
  datasetDir: z.string(),
  split: z.string(),
  zipPath: z.string(),
  /** `data/<task_id>/image.tar.gz` when present. */
  imagePath: z.string().optional(),
  /** The CSV row as read, unknown columns included. */
  row: z.record(z.string(), z.string()),
});
export type DatasetTaskSource = z.infer<typeof datasetTaskSourceSchema>;

const gitPairTaskSourceSchema = z.object({
  kind: z.literal('git'),
  /** A local git repository. */
  repoPath: z.string(),
  baseRef: z.string(),
  targetRef: z.string(),
});

/**
 * A SWE-bench-style instance: its repository's local clone, the base commit, and a test patch
 * that makes the "target" (the base with the instance's tests). There is no target commit: the
 * target side is the instance's FAIL_TO_PASS and PASS_TO_PASS lists.
 */
const sweBenchTaskSourceSchema = z.object({
  kind: z.literal('swe-bench'),
  /** The local clone of `instance.repo`. */
  repoPath: z.string(),
  /** The JSON or JSONL file the instance was read from. */
  instancesFile: z.string(),
  instance: sweBenchInstanceSchema,
});

export const taskSpecSchema = z.object({
  id: nonEmpty,
  /** Upstream repository name, when known (e.g. `owner/name`). */
  repo: z.string().optional(),
  /** Full commit sha of the base (c0). */
  baseSha: nonEmpty,
  /**
   * Full commit sha of the target / oracle (c*). For a SWE-bench instance, empty until the task is
   * materialised; the record then holds the commit made in the oracle (the base plus the test patch).
   */
  targetSha: z.string(),
  /** The dataset's `test_gap`: expected size of the non-passed set. */
  expectedGap: z.number().optional(),
  baseDate: z.string().optional(),
  targetDate: z.string().optional(),
  source: z.discriminatedUnion('kind', [datasetTaskSourceSchema, gitPairTaskSourceSchema, sweBenchTaskSourceSchema]),
});
export type TaskSpec = z.infer<typeof taskSpecSchema>;

/** The task's environment as its dataset ships it (`data/<task_id>/image.tar.gz`), if any. */
export function imageArchiveOf(spec: TaskSpec): string | undefined {
  return spec.source.kind === 'dataset' ? spec.source.imagePath : undefined;
}

/** Where a task's code and history come from, as a user would name it in a message. */
export function sourceLocation(spec: TaskSpec): string {
  return spec.source.kind === 'dataset' ? spec.source.zipPath : spec.source.repoPath;
}
