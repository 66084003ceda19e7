// The metrics row and the list of columns are one: each field of runMetricsRowSchema has
// exactly one column entry (metric-columns.ts) and each entry is a field of the row, so no
// metric is computed without saying where it shows, and no display reads a field the row lacks.
// The compiler already refuses a mismatch in METRIC_COLUMNS' type; this catches what a cast or
// a hand-built list could slip past, and checks the entries the displays walk.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { METRIC_COLUMN_LIST, METRIC_COLUMNS } from '../../../src/shared/metrics/metric-columns';
import { runMetrics, averageMetrics, type RunLine } from '../../../src/shared/metrics/run-metrics';
import { runMetricsRowSchema } from '../../../src/shared/metrics/run-metrics-row';

const sorted = (xs: Iterable<string>) => [...xs].sort();

test('every field of the metrics row has one column entry, and every entry is a field of the row', () => {
  const fields = Object.keys(runMetricsRowSchema.shape);
  assert.deepEqual(sorted(Object.keys(METRIC_COLUMNS)), sorted(fields), 'METRIC_COLUMNS keys = the row schema fields');
  const listed = METRIC_COLUMN_LIST.map((c) => c.id);
  assert.equal(new Set(listed).size, listed.length, 'no field listed twice');
  assert.deepEqual(sorted(listed), sorted(fields), 'the displays walk every column');
});

test('the row runMetrics builds is exactly the schema: every field, in the schema order, and it parses', () => {
  const lines: RunLine[] = [
    { gap: 2, pytest: { passed: 1 } },
    { gap: 1, pytest: { passed: 2 }, architect: { input_tokens: 5, output_tokens: 1, execution_time: 2 } },
    { gap: -1, pytest: {} },
  ];
  const row = runMetrics(lines, { maxIterations: 3, gamma: 1.2 });
  assert.deepEqual(Object.keys(row), Object.keys(runMetricsRowSchema.shape));
  assert.deepEqual(runMetricsRowSchema.parse(row), row);
  assert.equal(row.crashed, 1);
  assert.equal(row.tokensIn, 5);
});

test("each display's keys and headers are unique, and what the average names is a field of the row", () => {
  const unique = (what: string, xs: string[]) => assert.equal(new Set(xs).size, xs.length, `${what}: ${xs.join(', ')}`);
  unique(
    'export keys',
    METRIC_COLUMN_LIST.flatMap((c) => (c.export ? [c.export.key] : [])),
  );
  unique(
    'summary headers',
    METRIC_COLUMN_LIST.flatMap((c) => (c.summary ? [c.summary.head] : [])),
  );
  unique(
    'report headers',
    METRIC_COLUMN_LIST.flatMap((c) => (c.summary ? [c.summary.reportHead] : [])),
  );
  unique(
    'compare keys',
    METRIC_COLUMN_LIST.flatMap((c) => (c.compare ? [...c.compare.keys] : [])),
  );
  unique(
    'runs table headers',
    METRIC_COLUMN_LIST.flatMap((c) => (c.runsTable ? [c.runsTable.head(1)] : [])),
  );
  const averaged = METRIC_COLUMN_LIST.filter((c) => c.average).map((c) => c.id);
  const avg = averageMetrics([]);
  assert.deepEqual(sorted(Object.keys(avg).filter((k) => !['count', 'flagged', 'solvedFlagged'].includes(k))), sorted(averaged));
  // A column the summaries or compare average must be averaged.
  for (const c of METRIC_COLUMN_LIST) if (c.summary || c.compare) assert.ok(c.average, `${c.id} is shown in an average row, so it has an average`);
});
