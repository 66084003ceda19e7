import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dodgeCoinciding } from '../../../webview-ui/dodge';

test('coinciding points of two series are spread apart symmetrically; others stay on their iteration', () => {
  const agent = [
    { x: 0, y: 0 },
    { x: 1, y: 0.5 },
    { x: 2, y: 1 },
  ];
  const replay = [
    { x: 0, y: 0 },
    { x: 1, y: 0.25 },
    { x: 2, y: 1 },
  ];
  const [a, r] = dodgeCoinciding([agent, replay]);
  assert.deepEqual(
    a.map((p) => p.x),
    [-0.04, 1, 1.96],
  );
  assert.deepEqual(
    r.map((p) => p.x),
    [0.04, 1, 2.04],
  );
  assert.deepEqual(
    a.map((p) => p.y),
    agent.map((p) => p.y),
    'values are never moved',
  );
});

test('three identical series get three distinct positions, centred on the iteration', () => {
  const s = [{ x: 3, y: -0.5 }];
  const out = dodgeCoinciding([s, s, s]).map((pts) => pts[0].x);
  assert.equal(new Set(out).size, 3);
  assert.ok(Math.abs(out.reduce((a, b) => a + b, 0) / 3 - 3) < 1e-12);
  assert.deepEqual(dodgeCoinciding([s]), [s], 'a lone series is untouched');
});
