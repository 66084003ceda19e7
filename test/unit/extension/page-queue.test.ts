// The webview host's queue (src/extension/webview/page-queue.ts): a message posted before the
// page said ready reaches it after ready, never before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PageQueue } from '../../../src/extension/webview/page-queue';

type M = { type: 'init'; n: number } | { type: 'update'; n: number } | { type: 'theme-changed' };

function queue(): { q: PageQueue<M>; delivered: M[] } {
  const delivered: M[] = [];
  return { q: new PageQueue<M>((m) => delivered.push(m)), delivered };
}

test('a message posted before ready is not delivered until ready, then after the first messages', () => {
  const { q, delivered } = queue();
  q.post({ type: 'theme-changed' });
  assert.deepEqual(delivered, [], 'nothing reaches a page that has not said ready');
  q.open([{ type: 'init', n: 1 }]);
  assert.deepEqual(delivered, [{ type: 'init', n: 1 }, { type: 'theme-changed' }]);
  q.post({ type: 'update', n: 2 });
  assert.deepEqual(delivered.at(-1), { type: 'update', n: 2 }, 'once ready, a message goes at once');
});

test('waiting messages keep their order; one of a type the first messages carry, or named replaced, is dropped', () => {
  const { q, delivered } = queue();
  q.post({ type: 'init', n: 0 });
  q.post({ type: 'theme-changed' });
  q.post({ type: 'update', n: 1 });
  q.open([{ type: 'init', n: 2 }], ['update']);
  assert.deepEqual(delivered, [{ type: 'init', n: 2 }, { type: 'theme-changed' }]);
});

test('a page that reloads waits again; a closed page drops what waited', () => {
  const { q, delivered } = queue();
  q.open([]);
  q.loading();
  q.post({ type: 'update', n: 1 });
  assert.deepEqual(delivered, []);
  q.closed();
  q.open([]);
  assert.deepEqual(delivered, [], 'what waited for a closed page is not sent to the next');
  q.post({ type: 'theme-changed' });
  assert.deepEqual(delivered, [{ type: 'theme-changed' }]);
});
