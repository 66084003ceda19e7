// The hand-written check of the per-run summary cache (run-summary-cache-check.ts) against the
// schema it stands in for (runSummaryCacheSchema): every value it passes, the schema passes and
// returns unchanged (same keys, same order), over caches of every shape the readers write and
// over hostile edits of them; its tables are the schema's objects, field for field. A sealed
// cache (its digest right) that the check refuses is read as no cache.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { runInfoSchema } from '../../../src/core/loop/run-store';
import { sealJson, unsealJson } from '../../../src/core/records/sealed-json';
import { chartRunSchema } from '../../../src/shared/chart-types';
import { runSummaryCacheSchema, type RunSummaryCache } from '../../../src/core/scoring/run-summary-cache-schema';
import { CACHE_OBJECTS, isRunSummaryCache } from '../../../src/core/scoring/run-summary-cache-check';
import { RUN_SUMMARY_CODE } from '../../../src/core/scoring/run-summary-code';
import { runMetricsRowSchema } from '../../../src/shared/metrics/run-metrics-row';
import { edits } from '../helpers/json-edits';

const metrics = {
  evoScore: 0.75,
  gamma: 1,
  evoScoreReference: 0.75,
  solved: true,
  zeroRegression: false,
  regressions: 2,
  finalA: 1,
  iterations: 3,
  crashed: 1,
  maxIterations: 20,
  tokensIn: 3448179,
  tokensOut: 172392,
  timeSec: 11187.5,
  scoreFlags: ['inflated' as const, 'not-isolated' as const],
};

/** Every optional field present, a baseline, two variants. */
const full: RunSummaryCache = {
  schema: 1,
  code: RUN_SUMMARY_CODE,
  key: { run: '1:2:604:17:18', lines: '1:3:13905:17:18', journal: '1:4:90:17:18', task: '1:5:600:17:18', status: '1:6:142:17:18' },
  base: {
    info: {
      schema: 1,
      name: 'gemini-3-pro',
      created: '2025-12-14T21:21:00.000Z',
      kind: 'loop',
      roles: {
        architect: { kind: 'agent', label: 'gemini-3-pro', preset: 'claude', command: 'x', model: 'gemini-3-pro', timeoutSec: 3600, maxTries: 3 },
        programmer: { kind: 'human', label: 'human' },
      },
      maxIterations: 20,
      baseCommit: '0'.repeat(40),
      branch: 'sweci/gemini-3-pro',
    },
    lines: 4,
    pending: true,
    usage: { cached: 2413708, cost: 5.517, source: 'mixed' },
  },
  task: { task: { repo: 'org/repo26' }, status: { state: 'budget-exhausted', reason: 'the task spent $5' } },
  variants: [
    {
      variant: { maxIterations: 20, gamma: 1, scoring: { excludeHarnessTampering: false, scoreTargetTestsOnly: true, keepFlagged: false } },
      run: {
        run: 'gemini-3-pro',
        kind: 'agent',
        label: 'architect: gemini-3-pro · programmer: human',
        created: '2025-12-14T21:21:00.000Z',
        runMaxIterations: 20,
        baseline: { init: 198, target: 268 },
        evoA: [0.25, -0.5, 1],
        metrics,
        pending: true,
        flags: ['inflated', 'tampered', 'network-open'],
      },
    },
    {
      variant: { maxIterations: 1, gamma: 0.8, scoring: { excludeHarnessTampering: true, scoreTargetTestsOnly: false, keepFlagged: true } },
      run: {
        run: 'gemini-3-pro',
        kind: 'human',
        label: 'human',
        created: '2025-12-14T21:21:00.000Z',
        runMaxIterations: 20,
        baseline: { init: 0, target: 0 },
        evoA: [0],
        metrics: { ...metrics, gamma: 0.8, scoreFlags: [] },
        pending: false,
        flags: [],
      },
    },
  ],
};

/** No optional field, nulls where the schema allows them, no variant yet. */
const bare: RunSummaryCache = {
  schema: 1,
  code: RUN_SUMMARY_CODE,
  key: { run: '1:2:604:17:18', lines: null, journal: null, task: null, status: null },
  base: {
    info: {
      schema: 1,
      name: 'human-history',
      created: '2025-12-14T21:21:00.000Z',
      kind: 'human-history',
      roles: { architect: { kind: 'human', label: 'upstream' }, programmer: { kind: 'human', label: 'upstream' } },
      maxIterations: 400,
      baseCommit: '0'.repeat(40),
    },
    lines: 0,
    pending: false,
    usage: { cached: 0, cost: null, source: 'none' },
  },
  task: { task: null, status: null },
  variants: [],
};

/** A run without a baseline (the base run's pytest did not run). */
const noBaseline: RunSummaryCache = {
  ...bare,
  task: { task: { repo: null }, status: { state: 'init-failed' } },
  variants: [
    {
      variant: { maxIterations: 20, gamma: 1.2, scoring: { excludeHarnessTampering: false, scoreTargetTestsOnly: false, keepFlagged: false } },
      run: {
        run: 'human-history',
        kind: 'human-history',
        label: 'upstream',
        created: '2025-12-14T21:21:00.000Z',
        runMaxIterations: 400,
        baseline: null,
        evoA: [],
        metrics: { ...metrics, evoScore: null, evoScoreReference: null, finalA: null, solved: false, scoreFlags: [] },
        pending: false,
        flags: [],
      },
    },
  ],
};
const VALID = [full, bare, noBaseline];

/** The words of the cache's own enums, for the edits to put anywhere. */
const WORDS = ['inflated', 'solved', 'loop', 'human-history', 'mixed', RUN_SUMMARY_CODE].map((w) => JSON.stringify(w));

/** `text` through the check and the schema: the check passes only what the schema returns as it is. */
function compare(text: string): { plain: boolean; valid: boolean } {
  const value = JSON.parse(text) as unknown;
  const zod = runSummaryCacheSchema.safeParse(value);
  const plain = isRunSummaryCache(value);
  if (plain) {
    assert.ok(zod.success, `the check passed a cache the schema refuses: ${text}`);
    assert.deepStrictEqual(value, zod.data, `the schema returns another value for ${text}`);
    assert.equal(JSON.stringify(value), JSON.stringify(zod.data), `the schema returns other keys or another order for ${text}`);
  }
  return { plain, valid: zod.success };
}

test('the caches the readers write pass the check as they are', () => {
  for (const cache of VALID) {
    const text = JSON.stringify(runSummaryCacheSchema.parse(cache));
    assert.equal(compare(text).plain, true, `the check refuses a cache of the schema's shape: ${text}`);
  }
});

test('over every edit of valid caches, the check passes only what the schema passes unchanged', () => {
  let caches = 0;
  let passed = 0;
  let refused = 0;
  let validButNotPlain = 0;
  for (const cache of VALID) {
    for (const text of edits(JSON.stringify(cache), WORDS)) {
      const { plain, valid } = compare(text);
      caches++;
      if (plain) passed++;
      if (!valid) refused++;
      if (valid && !plain) validButNotPlain++;
    }
  }
  // The edits reach every side: caches the check passes, caches the schema refuses, and valid ones
  // (reordered, with an unknown key or a __proto__ key) the check leaves out, to be rebuilt.
  assert.ok(caches > 10000, `${caches} caches`);
  assert.ok(passed > 500, `${passed} passed the check`);
  assert.ok(refused > 5000, `${refused} refused`);
  assert.ok(validButNotPlain > 500, `${validButNotPlain} valid caches left out`);
});

test('a sealed cache (its digest right) that the check refuses reads as none; a good one reads as it was written', () => {
  const good = sealJson(runSummaryCacheSchema, isRunSummaryCache, full, 'summary-cache.json');
  assert.deepStrictEqual(unsealJson(good, isRunSummaryCache), full);
  // What a hostile writer may seal: the digest is anyone's to compute.
  const hostile: object[] = [
    { ...full, base: null },
    { ...full, variants: [{ variant: 'any', run: {} }] },
    { ...full, variants: [...full.variants, ...full.variants, full.variants[0]] },
    { ...full, code: 'another-version' },
    { ...full, base: { ...full.base, info: { ...full.base.info, roles: null } } },
    { ...full, variants: [{ ...full.variants[0], run: { ...full.variants[0].run, evoA: [1, '1'] } }] },
    { ...full, variants: [{ ...full.variants[0], run: { ...full.variants[0].run, metrics: { ...metrics, iterations: -1 } } }] },
    { ...full, task: { task: { repo: 'org/x', extra: 1 }, status: null } },
    {},
  ];
  for (const value of hostile) {
    const body = JSON.stringify(value);
    assert.equal(unsealJson(forgeSealed(body), isRunSummaryCache), undefined, `read as a cache: ${body}`);
    assert.equal(unsealJson(forgeSealed(body), (_v): _v is unknown => true) !== undefined, true, 'the digest holds: the check is what refuses it');
  }
  // And sealJson refuses to write them, in the schema's words.
  assert.throws(
    () => sealJson(runSummaryCacheSchema, isRunSummaryCache, { ...full, base: null } as unknown as RunSummaryCache, 'summary-cache.json'),
    /refusing to write summary-cache\.json: "base" is missing/,
  );
  const { schema, code, ...rest } = full;
  assert.throws(
    () => sealJson(runSummaryCacheSchema, isRunSummaryCache, { code, schema, ...rest }, 'summary-cache.json'),
    /refusing to write summary-cache\.json: its fields are not the schema's alone, in the schema's order/,
  );
});

/** A body sealed with its right digest, as a forger can. */
function forgeSealed(body: string): string {
  return `{"digest":"${createHash('sha256').update(body).digest('hex')}",${body.slice(1)}\n`;
}

/** Each field's check is optional exactly when the schema lets the field be absent, and the fields are the schema's, in its order. */
function sameFields(checks: Record<string, { optional: boolean }>, shape: Record<string, { safeParse(v: unknown): { success: boolean } }>, what: string): void {
  assert.deepEqual(Object.keys(checks), Object.keys(shape), `${what}: the check's fields are not the schema's (in its order)`);
  for (const [name, field] of Object.entries(checks))
    assert.equal(field.optional, shape[name].safeParse(undefined).success, `${what}.${name}: optional in one and not the other`);
}

test('the check knows the schema’s objects, their fields in order, optional where it says', () => {
  const cache = runSummaryCacheSchema.shape;
  const run = cache.variants.element.shape.run.shape;
  const variant = cache.variants.element.shape.variant.shape;
  const shapes = {
    cache,
    recordsKey: cache.key.shape,
    base: cache.base.shape,
    info: runInfoSchema.shape,
    roles: runInfoSchema.shape.roles.shape,
    role: runInfoSchema.shape.roles.shape.architect.shape,
    usage: cache.base.shape.usage.shape,
    task: cache.task.shape,
    taskRecord: cache.task.shape.task.unwrap().shape,
    status: cache.task.shape.status.unwrap().shape,
    cachedVariant: cache.variants.element.shape,
    variant,
    scoring: variant.scoring.shape,
    run,
    baseline: chartRunSchema.shape.baseline.def.innerType.shape,
    metrics: runMetricsRowSchema.shape,
  };
  assert.deepEqual(Object.keys(CACHE_OBJECTS).sort(), Object.keys(shapes).sort(), 'every object of the schema has its table');
  for (const [name, shape] of Object.entries(shapes)) sameFields(CACHE_OBJECTS[name as keyof typeof CACHE_OBJECTS], shape, name);
});
