import assert from 'node:assert/strict';
import { test } from 'node:test';
import { leaderboardRecordSchema } from '../../../src/shared/leaderboard-record';
import { isLeaderboardHostMessage, leaderboardViewMessageSchema } from '../../../src/shared/leaderboard-protocol';
import { leaderboardFixture } from '../helpers/leaderboard-fixture';

test('the fixture is a record the schema accepts: 18 entries, five γ, best first at γ=1', () => {
  const record = leaderboardRecordSchema.parse(leaderboardFixture());
  assert.equal(record.entries.length, 18);
  assert.deepEqual(record.gammas, ['0.8', '0.9', '1', '1.1', '1.2']);
  const scores = record.entries.map((e) => e.evoScore['1']);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  assert.equal(record.pairs.length, (18 * 17) / 2);
  assert.ok(record.entries.some((e) => e.kind === 'human-history'));
});

test('the host sends a record only as the schema has it', () => {
  const record = leaderboardFixture();
  assert.ok(isLeaderboardHostMessage({ type: 'init', record }));
  assert.ok(isLeaderboardHostMessage({ type: 'update', record }));
  assert.ok(!isLeaderboardHostMessage({ type: 'show', record }));
  assert.ok(!isLeaderboardHostMessage({ type: 'init' }));
  // What it ranks stays with the host (kept for a window reload): the page is sent the record only.
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record, source: { kind: 'file', file: '/w/leaderboard.json' } }));
  // A field the record does not name, a rate above 1, a γ key that is not a number: refused.
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: { ...record, extra: 1 } }));
  const [first, ...rest] = record.entries;
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: { ...record, entries: [{ ...first, solvedRate: 1.5 }, ...rest] } }));
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: { ...record, entries: [{ ...first, evoScore: { one: 0.5 } }, ...rest] } }));
  // Parts that disagree: an entry renamed but not its ranks, a pair naming no entry, two entries of one label, a γ with no ranks.
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: { ...record, entries: [{ ...first, label: 'renamed' }, ...rest] } }));
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: { ...record, pairs: [{ ...record.pairs[0], b: 'nobody' }, ...record.pairs.slice(1)] } }));
  const twice = { ...record, entries: [first, { ...rest[0], label: first.label }, ...rest.slice(1)] };
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: twice }));
  assert.ok(!isLeaderboardHostMessage({ type: 'init', record: { ...record, gammas: [...record.gammas, '1.3'] } }));
});

test('the webview sends ready, export, an entry by label and a task by label and id; nothing else', () => {
  const ok = (m: unknown) => leaderboardViewMessageSchema.safeParse(m).success;
  assert.ok(ok({ type: 'ready' }));
  assert.ok(ok({ type: 'export-requested' }));
  assert.ok(ok({ type: 'entry-clicked', label: 'gpt-5' }));
  assert.ok(ok({ type: 'task-clicked', label: 'gpt-5', task: 'repo01__task-001' }));
  assert.ok(!ok({ type: 'entry-clicked', label: '' }));
  assert.ok(!ok({ type: 'entry-clicked', label: 'gpt-5', path: '/etc/passwd' }));
  assert.ok(!ok({ type: 'task-clicked', label: 'gpt-5' }));
  assert.ok(!ok({ type: 'entry-clicked', label: 'x'.repeat(501) }));
  assert.ok(!ok({ type: 'open-file', file: '/etc/passwd' }));
});
