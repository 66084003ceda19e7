// The shape of a sequence's view data (sequence-data.ts builds it) as a schema the chart webview
// checks on receipt, with the type inferred from it. Browser-safe: no node imports.
import * as z from 'zod/mini';

/** A score in [0, 1], or null when it was not measured. */
const score = z.nullable(z.number().check(z.minimum(0), z.maximum(1)));

export const sequenceMetricSchema = z.object({
  name: z.string(),
  value: z.nullable(z.number()),
  /** Why the value is null. */
  missing: z.optional(z.string()),
  /** How the value was made, when that needs saying (CL-Score's weights, FWT's baseline). */
  note: z.optional(z.string()),
});
export type SequenceMetric = z.infer<typeof sequenceMetricSchema>;

export const sequenceDataSchema = z
  .object({
    sequence: z.string(),
    memory: z.boolean(),
    tasks: z.array(z.string()),
    /** What an entry holds: the share of the task's tests that pass, or resolved (1 or 0). */
    cells: z.enum(['fraction', 'resolved']),
    /** Row i: after task i, per task j ≤ i: the entry or null (not measured); [] when task i is not done. */
    matrix: z.array(z.array(score)),
    /** The task of the open folder, when it is one of the sequence's. */
    current: z.optional(z.int().check(z.minimum(0))),
    learning: z.array(score),
    accuracy: z.array(score),
    metrics: z.array(sequenceMetricSchema),
    /** The folder name of the zero-shot run FWT was measured against. */
    zeroShot: z.optional(z.string()),
  })
  .check(
    z.refine((s) => {
      const n = s.tasks.length;
      // A square lower-triangular matrix and one curve point per task.
      return (
        s.matrix.length === n &&
        s.matrix.every((row, i) => row.length === 0 || row.length === i + 1) &&
        (s.current === undefined || s.current < n) &&
        s.learning.length === n &&
        s.accuracy.length === n
      );
    }, 'a square lower-triangular matrix, one curve point per task'),
  );
export type SequenceData = z.infer<typeof sequenceDataSchema>;
