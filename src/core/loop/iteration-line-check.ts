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
type Check = (v: unknown) => boolean;

/** A field's check and whether the schema lets it be absent. */
interface FieldCheck {
  check: Check;
  optional: boolean;
}

const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const str: Check = (v) => typeof v === 'string';
const count: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const numOrNull: Check = (v) => v === null || num(v);
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const strings: Check = (v) => {
  if (!Array.isArray(v)) return false;
  for (const s of v) if (typeof s !== 'string') return false;
  return true;
};
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
/** z.record(z.string(), z.number()). */
const numberRecord: Check = (v) => {
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) if (k === '__proto__' || !num(v[k])) return false;
  return true;
};

const req = (check: Check): FieldCheck => ({ check, optional: false });
const opt = (check: Check): FieldCheck => ({ check, optional: true });

/** z.object(fields) for a value whose keys are all known and in the fields' order. */
function object(fields: Record<string, FieldCheck>): Check {
  const names = Object.keys(fields);
  const specs = names.map((n) => fields[n]);
  return (v) => {
    if (!isPlainObject(v)) return false;
    let at = 0;
    for (const k of Object.keys(v)) {
      // Fields skipped on the way to k must be optional ones.
      while (at < names.length && names[at] !== k) if (!specs[at++].optional) return false;
      if (at === names.length || !specs[at++].check(v[k])) return false;
    }
    while (at < names.length) if (!specs[at++].optional) return false;
    return true;
  };
}

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
