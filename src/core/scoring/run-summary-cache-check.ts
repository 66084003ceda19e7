// The hand-written check of a run's summary cache (run-summary-cache.ts), in place of
// runSummaryCacheSchema (zod) on the two paths that run by the thousand: every cache read warm
// and every cache written cold. It says yes only for a value the schema accepts and returns as it
// is (records/plain-check.ts); anything else on read is a cache to ignore and rebuild, and on
// write a bug, which the schema then words. test/unit/scoring/run-summary-cache-check.test.ts
// holds it to the schema over hostile edits, and these tables to the schema's fields.
import { RUN_FLAGS } from '../../shared/metrics/run-flags';
import { roleKind } from '../loop/iteration-record';
import { arrayOf, bool, count, literal, nullable, num, numOrNull, object, oneOf, opt, req, str, type FieldCheck } from '../records/plain-check';
import { taskStateSchema } from '../records/task-status-file';
import { chartRunKindSchema } from '../../shared/chart-types';
import { MAX_VARIANTS, type RunSummaryCache } from './run-summary-cache-schema';
import { RUN_SUMMARY_CODE } from './run-summary-code';

const flags = arrayOf(oneOf(...RUN_FLAGS));
const key = nullable(str);

/** Each object of the cache's schema, by where it sits: the test holds each to its zod shape. */
export const CACHE_OBJECTS = (() => {
  const role = {
    kind: req(oneOf(...roleKind.options)),
    label: req(str),
    preset: opt(str),
    command: opt(str),
    model: opt(str),
    timeoutSec: opt(num),
    maxTries: opt(num),
  };
  const roles = { architect: req(object(role)), programmer: req(object(role)) };
  const info = {
    schema: req(literal(1)),
    name: req(str),
    created: req(str),
    kind: req(oneOf('loop', 'human-history')),
    roles: req(object(roles)),
    maxIterations: req(num),
    baseCommit: req(str),
    branch: opt(str),
  };
  const usage = { cached: req(num), cost: req(numOrNull), source: req(oneOf('wire', 'agent-reported', 'mixed', 'none')) };
  const base = { info: req(object(info)), lines: req(count), pending: req(bool), usage: req(object(usage)) };
  const taskRecord = { repo: req(nullable(str)) };
  const status = { state: req(oneOf(...taskStateSchema.options)), reason: opt(str) };
  const task = { task: req(nullable(object(taskRecord))), status: req(nullable(object(status))) };
  const scoring = { excludeHarnessTampering: req(bool), scoreTargetTestsOnly: req(bool), keepFlagged: req(bool) };
  const variant = { maxIterations: req((v) => count(v) && (v as number) >= 1), gamma: req(num), scoring: req(object(scoring)) };
  const metrics = {
    evoScore: req(numOrNull),
    gamma: req(num),
    evoScoreReference: req(numOrNull),
    solved: req(bool),
    zeroRegression: req(bool),
    regressions: req(num),
    finalA: req(numOrNull),
    iterations: req(count),
    crashed: req(num),
    maxIterations: req(num),
    tokensIn: req(num),
    tokensOut: req(num),
    timeSec: req(num),
    scoreFlags: req(flags),
  };
  const baseline = { init: req(num), target: req(num) };
  const run = {
    run: req(str),
    kind: req(oneOf(...chartRunKindSchema.options)),
    label: req(str),
    created: req(str),
    runMaxIterations: req(num),
    baseline: req(nullable(object(baseline))),
    evoA: req(arrayOf(num)),
    metrics: req(object(metrics)),
    pending: req(bool),
    flags: req(flags),
  };
  const cachedVariant = { variant: req(object(variant)), run: req(object(run)) };
  const recordsKey = { run: req(key), lines: req(key), journal: req(key), task: req(key), status: req(key) };
  const cache = {
    schema: req(literal(1)),
    code: req(literal(RUN_SUMMARY_CODE)),
    key: req(object(recordsKey)),
    base: req(object(base)),
    task: req(object(task)),
    variants: req(arrayOf(object(cachedVariant), MAX_VARIANTS)),
  };
  return {
    cache,
    recordsKey,
    base,
    info,
    roles,
    role,
    usage,
    task,
    taskRecord,
    status,
    cachedVariant,
    variant,
    scoring,
    run,
    baseline,
    metrics,
  } satisfies Record<string, Record<string, FieldCheck>>;
})();

const cacheCheck = object(CACHE_OBJECTS.cache);

/** True when runSummaryCacheSchema accepts `value` (JSON.parse's output) and returns it as it is; false: not a cache to use. */
export function isRunSummaryCache(value: unknown): value is RunSummaryCache {
  return cacheCheck(value);
}
