import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHeatmap, isHostMessage, isWebviewMessage } from '../../../src/shared/chart-protocol';
import type { ChartData, ChartRun } from '../../../src/core/scoring/chart-types';

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
  solvedLast: false,
  zeroRegression: true,
  regressions: 0,
  regressionAmplitudes: [],
  regressedTests: 0,
  finalA: 0,
  iterations: 1,
  crashed: 1,
  maxIterations: 1,
  tokensIn: 0,
  tokensOut: 0,
  timeSec: 1.5,
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
  assert.ok(isWebviewMessage({ type: 'rendered', runs: ['a', 'b'], points: 7, heatmapRun: 'a', gamma: 1, foreground: '#333' }));
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
    { type: 'rendered', runs: 'a', points: 1, gamma: 1, foreground: '#333' },
    { type: 'rendered', runs: ['a'], points: 1 },
    { type: 'eval', code: 'alert(1)' },
  ]) {
    assert.equal(isWebviewMessage(bad), false, JSON.stringify(bad));
  }
});
