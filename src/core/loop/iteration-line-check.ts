// A hand-written check of one iteration.jsonl line, for the shapes the harness writes: it answers
// "valid, and the schema would return this very value" or "not sure". Not sure sends the line to
// iterationRecordSchema (zod), which gives the verdict and the error; so the lines refused are
// exactly those the schema refuses, and the check only saves the schema's time on the ~36,000
// lines a paper-scale leaderboard reads. test/unit/loop/iteration-line-check.test.ts runs both
// over valid and hostile lines and holds this table to the schema's shape.
//
// The input is JSON.parse's output (plain objects and arrays, no undefined, no accessors). The
// schema returns objects with their keys in its shape's order and no unknown keys, so the check
// says yes only for lines whose keys are known and in that order (the order the harness writes,
// formatIterationLine's), and never for a `__proto__` key (the schema drops it from a record).
import { num, numberRecord, numOrNull, object, oneOf, opt, req, str, strings, count, type FieldCheck } from '../records/plain-check';

/** roleStepRecordSchema's fields, in its order. */
export const ROLE_FIELDS: Record<string, FieldCheck> = {
  execution_time: opt(num),
  input_tokens: opt(num),
  output_tokens: opt(num),
  cached_tokens: opt(num),
  reasoning_tokens: opt(num),
  cost_usd: opt(num),
  model_calls: opt(num),
  usage_source: opt(oneOf('wire')),
  agent_reported: opt(object({ input_tokens: opt(num), output_tokens: opt(num), cost_usd: opt(num) })),
  network: opt(oneOf('model-only', 'open', 'none', 'not-confined')),
  kind: req(oneOf('agent', 'human')),
  agent: req(str),
  tries: req(num),
  failed_tries: opt(strings),
  permissions: opt(str),
  discarded_changes: opt(strings),
  removed_from_app: opt(strings),
};

/** iterationRecordSchema's fields, in its order. */
export const LINE_FIELDS: Record<string, FieldCheck> = {
  gap: req(num),
  pytest: req(numberRecord),
  architect: opt(object(ROLE_FIELDS)),
  programmer: opt(object(ROLE_FIELDS)),
  iteration: req(count),
  run: req(str),
  started_at: req(str),
  finished_at: req(str),
  commit: req(str),
  passed: req(numOrNull),
  target_passed: req(num),
  regressions: req(strings),
  tampered: req(strings),
  outside_changes: req(strings),
  harness_tampering: opt(strings),
  inflated: opt(strings),
  inflated_count: opt(num),
  oversized: opt(strings),
  pytest_error: opt(str),
  pytest_time: opt(num),
  note: opt(str),
  isolation: opt(oneOf('container', 'sandbox', 'none')),
  pytest_network: opt(oneOf('host')),
};

const lineCheck = object(LINE_FIELDS);

/** True when the schema would accept `value` (JSON.parse's output) and return it as it is; false: ask the schema. */
export function isPlainIterationLine(value: unknown): boolean {
  return lineCheck(value);
}
