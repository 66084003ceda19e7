import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHeatmap, isHostMessage, isWebviewMessage } from '../../../src/shared/chart-protocol';
import type { ChartData } from '../../../src/shared/chart-data-adapter';

const point = { iteration: 0, a: 0, passed: 3, targetPassed: 10, gap: 7, regressions: 0, crashed: false, tokensIn: 0, tokensOut: 0, timeSec: 1.5, commit: 'abc' };
const data: ChartData = {
  series: [{ run: 'r1', kind: 'agent', points: [point, { ...point, iteration: 1, a: null, passed: null, gap: -1, crashed: true }] }],
  metrics: [{ run: 'r1', kind: 'agent', solved: false, zeroRegression: true, regressions: 0, finalA: 0, iterations: 1, tokensIn: 0, tokensOut: 0, timeSec: 1.5 }],
  maxIterations: 1,
};

test('host messages of every kind are accepted when well formed', () => {
  assert.ok(isHostMessage({ type: 'init', data, gamma: 1 }));
  assert.ok(isHostMessage({ type: 'update', data }));
  assert.ok(isHostMessage({ type: 'heatmap', heatmap: { run: 'r1', tests: ['a', 'b'], iterations: [0, 1], cells: 'pfem' } }));
  assert.ok(isHostMessage({ type: 'theme-changed' }));
  assert.ok(isHostMessage({ type: 'reveal-ack', run: 'r1', iteration: 2, ok: true }));
  assert.ok(isHostMessage({ type: 'export-done', ok: false, message: 'no folder' }));
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
    { type: 'update', data: { series: [{ run: 'r', kind: 'robot', points: [] }], metrics: [], maxIterations: 0 } },
    { type: 'update', data: { ...data, series: [{ run: 'r', kind: 'agent', points: [{ ...point, a: 'x' }] }] } },
    { type: 'update', data: { ...data, series: [{ run: 'r', kind: 'agent', points: [{ ...point, iteration: 1.5 }] }] } },
    { type: 'reveal-ack', run: 'r', iteration: 1 },
    { type: 'export-done', ok: true, folder: 3 },
  ]) {
    assert.equal(isHostMessage(bad), false, JSON.stringify(bad));
  }
});

test('a heatmap whose cells do not match tests × iterations, or hold unknown codes, is rejected', () => {
  assert.equal(isHeatmap({ run: 'r', tests: ['a'], iterations: [0, 1], cells: 'p' }), false);
  assert.equal(isHeatmap({ run: 'r', tests: ['a'], iterations: [0, 1], cells: 'px' }), false);
  assert.equal(isHeatmap({ run: 'r', tests: [1], iterations: [0], cells: 'p' }), false);
  assert.ok(isHeatmap({ run: 'r', tests: [], iterations: [], cells: '' }));
});

test('webview messages of every kind are accepted when well formed', () => {
  assert.ok(isWebviewMessage({ type: 'ready' }));
  assert.ok(isWebviewMessage({ type: 'point-clicked', run: 'r', iteration: 3 }));
  assert.ok(isWebviewMessage({ type: 'gamma-changed', gamma: 1.25 }));
  assert.ok(isWebviewMessage({ type: 'heatmap-requested', run: 'human-history' }));
  assert.ok(isWebviewMessage({ type: 'export-requested' }));
  assert.ok(isWebviewMessage({ type: 'rendered', runs: ['a', 'b'], points: 7, heatmapRun: 'a' }));
});

test('malformed webview messages are rejected', () => {
  for (const bad of [
    undefined,
    42,
    { type: 'point-clicked', run: 'r' },
    { type: 'point-clicked', run: 'r', iteration: -1 },
    { type: 'point-clicked', run: 7, iteration: 1 },
    { type: 'gamma-changed', gamma: Number.NaN },
    { type: 'gamma-changed', gamma: 0 },
    { type: 'heatmap-requested' },
    { type: 'rendered', runs: 'a', points: 1 },
    { type: 'eval', code: 'alert(1)' },
  ]) {
    assert.equal(isWebviewMessage(bad), false, JSON.stringify(bad));
  }
});
