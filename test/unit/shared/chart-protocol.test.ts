import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as z from 'zod/mini';
import { isHostMessage, webviewMessageSchema, type WebviewMessage } from '../../../src/shared/chart-protocol';
import type { ChartData, ChartPoint, ChartRun, HeatmapData, heatmapDataSchema } from '../../../src/shared/chart-types';
import type { SequenceData, sequenceDataSchema } from '../../../src/shared/sequence-data-schema';

// The chart data and a heatmap as the webview checks them: inside the host messages that carry them.
const isChartData = (data: unknown): boolean => isHostMessage({ type: 'update', data });
const isHeatmap = (heatmap: unknown): boolean => isHostMessage({ type: 'heatmap', requestId: 1, heatmap });

const point = {
  iteration: 0,
  a: 0,
  passed: 3,
  targetPassed: 10,
  pytestPassed: 5,
  gap: 7,
  regressions: 0,
  crashed: false,
  tokensIn: 0,
  tokensOut: 0,
  timeSec: 1.5,
  commit: 'abc',
  finishedAt: '2026-01-01T00:00:00Z',
};
const metrics: ChartRun['metrics'] = {
  evoScore: 0,
  gamma: 1,
  evoScoreReference: 0,
  solved: false,
  zeroRegression: true,
  regressions: 0,
  finalA: 0,
  iterations: 1,
  crashed: 1,
  maxIterations: 1,
  tokensIn: 0,
  tokensOut: 0,
  timeSec: 1.5,
  scoreFlags: [],
};
const run: ChartRun = {
  run: 'r1',
  kind: 'agent',
  label: 'claude-code',
  created: '2026-01-01T00:00:00Z',
  runMaxIterations: 20,
  baseline: { init: 5, target: 12 },
  points: [point, { ...point, iteration: 1, a: null, passed: null, pytestPassed: null, gap: -1, crashed: true }],
  evoA: [0],
  metrics,
  pending: false,
  flags: ['inflated'],
};
const data: ChartData = { maxIterations: 1, maxX: 1, gamma: 1, runs: [run], average: { count: 1, evoScore: 0, solved: 0, zeroRegression: 1 }, skipped: [] };
const heatmap = {
  run: 'r1',
  tests: ['a', 'b'],
  columns: [
    { iteration: 0, ran: true },
    { iteration: 1, ran: false },
  ],
  cells: '1200',
  regressions: [],
};

/** What the chart host accepts from the webview. */
const isWebviewMessage = (m: unknown) => webviewMessageSchema.safeParse(m).success;

test('host messages of every kind are accepted when well formed', () => {
  assert.ok(isHostMessage({ type: 'init', data, gamma: 1 }));
  assert.ok(isHostMessage({ type: 'update', data }));
  assert.ok(isHostMessage({ type: 'heatmap', requestId: 4, heatmap }));
  assert.ok(isHostMessage({ type: 'theme-changed' }));
  assert.ok(isHostMessage({ type: 'reveal-ack', requestId: 1, run: 'r1', iteration: 2, ok: true }));
  assert.ok(isHostMessage({ type: 'export-done', requestId: 2, ok: false, message: 'no folder' }));
});

test('malformed host messages are rejected', () => {
  for (const bad of [
    null,
    'init',
    [],
    {},
    { type: 'nope' },
    { type: 'init', data },
    { type: 'init', data, gamma: 9 },
    { type: 'init', data: { ...data, maxIterations: -1 }, gamma: 1 },
    { type: 'update', data: { ...data, runs: [{ ...run, kind: 'robot' }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, points: [{ ...point, a: 'x' }] }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, points: [{ ...point, iteration: 1.5 }] }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, metrics: { ...metrics, evoScore: 'high' } }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, evoA: [Number.NaN] }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, flags: ['trust-me'] }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, flags: undefined }] } },
    { type: 'update', data: { ...data, runs: [{ ...run, points: [{ ...point, inflated: 'many' }] }] } },
    { type: 'reveal-ack', requestId: 1, run: 'r', iteration: 1 },
    { type: 'export-done', requestId: 1, ok: true, folder: 3 },
    // A reply without the id of the request it answers.
    { type: 'heatmap', heatmap },
    { type: 'reveal-ack', run: 'r1', iteration: 2, ok: true },
    { type: 'export-done', requestId: -1, ok: true },
    // A field the protocol does not have.
    { type: 'theme-changed', html: '<script>' },
    { type: 'update', data, extra: 1 },
  ]) {
    assert.equal(isHostMessage(bad), false, JSON.stringify(bad));
  }
});

test('a heatmap whose cells do not match tests × columns, or hold unknown codes, is rejected', () => {
  assert.ok(isHeatmap(heatmap));
  assert.equal(isHeatmap({ ...heatmap, cells: '120' }), false);
  assert.equal(isHeatmap({ ...heatmap, cells: '1204' }), false);
  assert.equal(isHeatmap({ ...heatmap, tests: [1, 2] }), false);
  assert.equal(isHeatmap({ ...heatmap, columns: [{ iteration: 0 }, { iteration: 1, ran: true }] }), false);
  assert.ok(isHeatmap({ run: 'r', tests: [], columns: [], cells: '', regressions: [] }));
});

test('webview messages of every kind are accepted when well formed', () => {
  assert.ok(isWebviewMessage({ type: 'ready' }));
  assert.ok(isWebviewMessage({ type: 'point-clicked', requestId: 1, run: 'r', iteration: 3 }));
  assert.ok(isWebviewMessage({ type: 'gamma-changed', gamma: 1.25 }));
  assert.ok(isWebviewMessage({ type: 'heatmap-requested', requestId: 2, run: 'human-history' }));
  assert.ok(isWebviewMessage({ type: 'export-requested', requestId: 3 }));
});

test("the test webview's rendered report is not a message the product accepts", () => {
  assert.equal(isWebviewMessage({ type: 'rendered', runs: ['a', 'b'], points: 7, gamma: 1, foreground: '#333' }), false);
});

test('malformed webview messages are rejected', () => {
  for (const bad of [
    undefined,
    42,
    { type: 'point-clicked', requestId: 1, run: 'r' },
    { type: 'point-clicked', requestId: 1, run: 'r', iteration: -1 },
    { type: 'point-clicked', requestId: 1, run: 7, iteration: 1 },
    { type: 'point-clicked', run: 'r', iteration: 1 },
    { type: 'point-clicked', requestId: 1.5, run: 'r', iteration: 1 },
    { type: 'export-requested' },
    { type: 'ready', then: 'eval' },
    { type: 'heatmap-requested', requestId: 1, run: 'r', path: '/etc/passwd' },
    { type: 'gamma-changed', gamma: Number.NaN },
    { type: 'gamma-changed', gamma: 0 },
    { type: 'heatmap-requested', requestId: 1 },
    { type: 'eval', code: 'alert(1)' },
    { type: 'toString' },
    { type: 'constructor' },
  ]) {
    assert.equal(isWebviewMessage(bad), false, JSON.stringify(bad));
  }
});

test('a message with a field its schema does not name, or a field of the wrong type, is refused', () => {
  // Extra fields: at the top of a message from the webview (strict objects) …
  assert.equal(isWebviewMessage({ type: 'gamma-changed', gamma: 1, note: 'hi' }), false);
  assert.equal(isWebviewMessage({ type: 'export-requested', requestId: 3, folder: '/tmp' }), false);
  // … and wrong types, nested ones included.
  assert.equal(isWebviewMessage({ type: 'gamma-changed', gamma: '1' }), false);
  assert.equal(isWebviewMessage({ type: 'point-clicked', requestId: '1', run: 'r', iteration: 1 }), false);
  assert.equal(isChartData({ ...data, runs: [{ ...run, points: [{ ...point, finishedAt: 1 }] }] }), false);
  assert.equal(isChartData({ ...data, runs: [{ ...run, baseline: { init: 'x', target: 1 } }] }), false);
  // Every field of the data is checked now, not only those a hand-written check remembered.
  const { finishedAt: _f, ...noFinish } = point;
  assert.equal(isChartData({ ...data, runs: [{ ...run, points: [noFinish] }] }), false);
  const { average: _a, ...noAverage } = data;
  assert.equal(isChartData(noAverage), false);
  assert.equal(isChartData({ ...data, runs: [{ ...run, metrics: { ...metrics, zeroRegression: undefined } }] }), false);
  assert.ok(isChartData(data));
});

test('a sequence is a square lower-triangular matrix of entries in [0, 1] or null, saying what they hold, with one curve point per task', () => {
  const sequence: SequenceData = {
    sequence: 'seq',
    memory: true,
    tasks: ['a', 'b'],
    cells: 'fraction',
    matrix: [[1], [0.5, null]],
    current: 1,
    learning: [1, 0],
    accuracy: [1, 0.5],
    metrics: [
      { name: 'ACC', value: 0.5 },
      { name: 'FWT', value: null, missing: 'no zero-shot run' },
    ],
  };
  assert.ok(isHostMessage({ type: 'sequence', sequence }));
  assert.ok(isHostMessage({ type: 'sequence', sequence }));
  assert.ok(isHostMessage({ type: 'sequence', sequence: null }));
  for (const bad of [
    { ...sequence, matrix: [[1]] },
    {
      ...sequence,
      matrix: [
        [1, 1],
        [0, 1],
      ],
    },
    { ...sequence, matrix: [[2], [0, 1]] },
    { ...sequence, matrix: [[-0.5], [0, 1]] },
    { ...sequence, cells: 'share' },
    { ...sequence, cells: undefined },
    { ...sequence, current: 2 },
    { ...sequence, learning: [1] },
    { ...sequence, accuracy: [1, 1.5] },
    { ...sequence, metrics: [{ name: 'ACC', value: 'high' }] },
  ])
    assert.equal(isHostMessage({ type: 'sequence', sequence: bad }), false, JSON.stringify(bad));
});

/** True only when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test('the message and data types are the schemas’ (checked when this file compiles)', () => {
  // (HostMessage and ChartPoint are declared as their schemas' z.infer: nothing to check.)
  const fromSchemas: [
    Same<WebviewMessage, z.infer<typeof webviewMessageSchema>>,
    Same<HeatmapData, z.infer<typeof heatmapDataSchema>>,
    Same<SequenceData, z.infer<typeof sequenceDataSchema>>,
  ] = [true, true, true];
  assert.deepEqual(fromSchemas, [true, true, true]);
  // A field the schema does not name is not in the type either.
  // @ts-expect-error: no such field in the point-clicked schema
  const clicked: WebviewMessage = { type: 'point-clicked', requestId: 1, run: 'r', iteration: 1, path: '/etc/passwd' };
  assert.equal(isWebviewMessage(clicked), false);
  const extra: ChartPoint = {
    iteration: 0,
    a: 0,
    passed: 0,
    targetPassed: 0,
    pytestPassed: 0,
    gap: 0,
    regressions: 0,
    crashed: false,
    tokensIn: 0,
    tokensOut: 0,
    timeSec: 0,
    commit: 'c',
    finishedAt: '',
    // @ts-expect-error: no such field in the chart point schema
    colour: 'red',
  };
  assert.ok(extra);
});
