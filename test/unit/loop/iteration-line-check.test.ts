// The hand-written check of iteration.jsonl lines (iteration-line-check.ts) against the schema it
// stands in for: every line it passes, the schema passes and returns unchanged; the lines read
// with it and without it come out the same, or are refused with the same words. Over valid lines
// of every shape the harness writes and over hostile edits of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPlainIterationLine, LINE_FIELDS, ROLE_FIELDS } from '../../../src/core/loop/iteration-line-check';
import { iterationRecordSchema, roleStepRecordSchema, type IterationRecord } from '../../../src/core/loop/iteration-record';
import { parseJsonLines } from '../../../src/core/records/record-file';
import { edits } from '../helpers/json-edits';

const WHEN = 'Remove it.';

/** A line with every field the schema knows. */
const full: IterationRecord = {
  gap: 3,
  pytest: { passed: 7, failed: 3, total: 10, collected: 10 },
  architect: {
    execution_time: 41.5,
    input_tokens: 23731,
    output_tokens: 1186,
    cached_tokens: 16611,
    reasoning_tokens: 12,
    cost_usd: 0.03797,
    model_calls: 36,
    usage_source: 'wire',
    agent_reported: { input_tokens: 23000, output_tokens: 1100, cost_usd: 0.04 },
    network: 'model-only',
    kind: 'agent',
    agent: 'claude-code',
    tries: 2,
    failed_tries: ['try 1: exited 1'],
    permissions: 'every action accepted (confined)',
    discarded_changes: ['code/x.py'],
    removed_from_app: ['.claude/settings.json'],
  },
  programmer: { execution_time: 512, kind: 'human', agent: 'human', tries: 1, network: 'not-confined' },
  iteration: 4,
  run: 'run-1',
  started_at: '2025-12-14T21:20:00.000Z',
  finished_at: '2025-12-14T21:21:00.000Z',
  commit: 'a'.repeat(40),
  passed: 7,
  target_passed: 10,
  regressions: ['tests/test_a.py::test_b'],
  tampered: ['tests/conftest.py'],
  outside_changes: ['memory/notes.md'],
  harness_tampering: ['code/conftest.py'],
  inflated: ['tests/test_new.py::test_x'],
  inflated_count: 1,
  oversized: ['code/big.bin'],
  pytest_error: 'pytest timed out',
  pytest_time: 7.25,
  note: 'Fix the parser',
  isolation: 'container',
  pytest_network: 'host',
};

/** The base line (no roles) and a line of a run that did not get pytest to run. */
const base: IterationRecord = {
  gap: 70,
  pytest: { passed: 198, failed: 70 },
  iteration: 0,
  run: 'gemini-3-pro',
  started_at: '2025-12-14T21:20:00.000Z',
  finished_at: '2025-12-14T21:21:00.000Z',
  commit: '0'.repeat(40),
  passed: 198,
  target_passed: 268,
  regressions: [],
  tampered: [],
  outside_changes: [],
  pytest_time: 20,
  isolation: 'sandbox',
};
const crashed: IterationRecord = {
  ...base,
  gap: -1,
  pytest: {},
  passed: null,
  iteration: 9007199254740991,
  pytest_error: '',
  isolation: 'none',
  architect: undefined,
};
delete crashed.architect;
const VALID = [full, base, crashed];

/** The lines read as parseJsonLines reads them, with the check or with the schema alone: the records, or the error's words. */
function read(text: string, plain: boolean): { records?: unknown[]; error?: string } {
  try {
    return { records: parseJsonLines(`${text}\n`, 'iteration.jsonl', iterationRecordSchema, WHEN, plain ? isPlainIterationLine : undefined) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** `text` through both readers: the same records (key order and -0 included) or the same refusal. */
function compare(text: string): { plain: boolean; valid: boolean } {
  const value = JSON.parse(text) as unknown;
  const zod = iterationRecordSchema.safeParse(value);
  const plain = isPlainIterationLine(value);
  if (plain) {
    assert.ok(zod.success, `the check passed a line the schema refuses: ${text}`);
    assert.deepStrictEqual(value, zod.data, `the schema returns another value for ${text}`);
    assert.equal(JSON.stringify(value), JSON.stringify(zod.data), `the schema returns other keys or another order for ${text}`);
  }
  const withCheck = read(text, true);
  const schemaAlone = read(text, false);
  assert.deepStrictEqual(withCheck, schemaAlone, `read with the check and without it differ for ${text}`);
  assert.equal(withCheck.error === undefined, zod.success, text);
  return { plain, valid: zod.success };
}

test('the harness’s own lines pass the check as they are', () => {
  for (const record of VALID) {
    const text = JSON.stringify(iterationRecordSchema.parse(record));
    assert.equal(compare(text).plain, true, `the check sends a harness line to the schema: ${text}`);
  }
});

test('over every edit of valid lines, the check passes only what the schema passes unchanged, and reading refuses exactly what the schema refuses', () => {
  let lines = 0;
  let passed = 0;
  let refused = 0;
  let validButNotPlain = 0;
  for (const record of VALID) {
    for (const text of edits(JSON.stringify(record))) {
      const { plain, valid } = compare(text);
      lines++;
      if (plain) passed++;
      if (!valid) refused++;
      if (valid && !plain) validButNotPlain++;
    }
  }
  // The edits reach every side: lines the check passes, lines the schema refuses, and valid lines
  // (reordered, with an unknown key or a __proto__ key) that the schema must answer for.
  assert.ok(lines > 3000, `${lines} lines`);
  assert.ok(passed > 100, `${passed} passed the check`);
  assert.ok(refused > 1000, `${refused} refused`);
  assert.ok(validButNotPlain > 100, `${validButNotPlain} valid lines left to the schema`);
});

test('hostile lines: the ones a corrupted record may hold are refused with the schema’s words', () => {
  const good = JSON.stringify(base);
  const hostile = [
    good.replace('"gap":70', '"gap":1e999'),
    good.replace('"iteration":0', '"iteration":-1'),
    good.replace('"iteration":0', '"iteration":0.5'),
    good.replace('"iteration":0', '"iteration":9007199254740992'),
    good.replace('"passed":198,"target', '"passed":"198","target'),
    good.replace('"pytest":{"passed":198,"failed":70}', '"pytest":{"passed":198,"failed":null}'),
    good.replace('"pytest":{"passed":198,"failed":70}', '"pytest":[198,70]'),
    good.replace('"regressions":[]', '"regressions":[1]'),
    good.replace('"isolation":"sandbox"', '"isolation":"Sandbox"'),
    good.replace('"gap":70,', ''),
    good.replace('"run":"gemini-3-pro",', '"run":null,'),
  ];
  for (const text of hostile) {
    const { plain, valid } = compare(text);
    assert.equal(plain, false, text);
    assert.equal(valid, false, text);
    assert.match(read(text, true).error ?? '', /^iteration\.jsonl line 1 is corrupt \(/);
  }
  // A __proto__ key in pytest's summary is left to the schema, which takes it whatever its value
  // and drops it from what it returns.
  for (const value of ['1', '"x"']) {
    const proto = good.replace('"pytest":{', `"pytest":{"__proto__":${value},`);
    assert.deepStrictEqual(compare(proto), { plain: false, valid: true });
    assert.deepStrictEqual((read(proto, true).records?.[0] as IterationRecord).pytest, { passed: 198, failed: 70 });
  }
});

/** Each field's check is optional exactly when the schema lets the field be absent, and the fields are the schema's, in its order. */
function sameFields(checks: Record<string, { optional: boolean }>, shape: Record<string, { safeParse(v: unknown): { success: boolean } }>, what: string): void {
  assert.deepEqual(Object.keys(checks), Object.keys(shape), `${what}: the check's fields are not the schema's (in its order)`);
  for (const [name, field] of Object.entries(checks))
    assert.equal(field.optional, shape[name].safeParse(undefined).success, `${what}.${name}: optional in one and not the other`);
}

test('the check knows the schema’s fields, in its order, optional where it says', () => {
  sameFields(LINE_FIELDS, iterationRecordSchema.shape, 'iteration line');
  sameFields(ROLE_FIELDS, roleStepRecordSchema.shape, 'role step');
});
