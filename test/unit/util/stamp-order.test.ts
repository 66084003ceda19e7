import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareStamps } from '../../../src/core/util/stamp-order';

const sign = (n: number) => Math.sign(n);

test('compareStamps orders ISO stamps exactly as localeCompare does, and any other stamp by localeCompare itself', () => {
  // Stamps a run writes (toISOString), ones a digit apart at every position, and shapes it never writes.
  const stamps: string[] = [];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 200; i++) stamps.push(new Date(Date.UTC(2020, 0, 1) + (next() % (6 * 365 * 86_400_000))).toISOString());
  const base = '2025-11-30T05:58:36.123Z';
  for (let i = 0; i < base.length; i++) if (/\d/.test(base[i])) for (const d of '0459') stamps.push(base.slice(0, i) + d + base.slice(i + 1));
  stamps.push(
    '2025-11-30T05:58:36Z',
    '2025-11-30T05:58:36.5Z',
    '2025-11-30t05:58:36.123z',
    '2025-11-30 05:58:36',
    'yesterday',
    'Yesterday',
    '',
    '+275760-09-13T00:00:00.000Z',
  );
  for (const a of stamps) for (const b of stamps) assert.equal(sign(compareStamps(a, b)), sign(a.localeCompare(b)), `${a} vs ${b}`);
});
