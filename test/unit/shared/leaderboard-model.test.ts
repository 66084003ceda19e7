import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bumpSeries, byZeroRegression, costAxis, frontierPoints, HUMAN_PROVIDER, providerStyles, releaseSeries } from '../../../webview-ui/leaderboard-model';
import { leaderboardFixture } from '../helpers/leaderboard-fixture';

const palette = { series: ['#1a85ff', '#d18616', '#652d90', '#e51400'], historySeries: '#388a34' };

test('each provider is drawn unlike every other, the history in its own colour', () => {
  const record = leaderboardFixture();
  const styles = providerStyles(record, palette);
  assert.equal(styles.size, 9);
  const looks = [...styles.values()].map((s) => `${s.colour} ${s.marker} ${s.dash.join(',')}`);
  assert.equal(new Set(looks).size, looks.length);
  assert.equal(styles.get(HUMAN_PROVIDER)?.colour, '#388a34');
});

test('Figure 4 has one series per provider, oldest first, and names the entries without a release date', () => {
  const { series, undated } = releaseSeries(leaderboardFixture());
  assert.equal(series.length, 8);
  for (const s of series) {
    const dates = s.entries.map((e) => e.released ?? '');
    assert.deepEqual(dates, [...dates].sort());
  }
  assert.deepEqual(undated, ['human-history']);
});

test("Figure 5 gives each entry's rank at every γ, ties sharing one", () => {
  const record = leaderboardFixture();
  const rows = bumpSeries(record);
  assert.equal(rows.length, 18);
  for (const r of rows) assert.equal(r.ranks.length, 5);
  // At γ=1 the ranks follow the table order.
  const at1 = rows.map((r) => r.ranks[2]!);
  assert.deepEqual(
    at1,
    [...at1].sort((a, b) => a - b),
  );
  // The lines cross as γ moves: the order at γ=0.8 is not the one at γ=1.2.
  assert.notDeepEqual(
    rows.map((r) => r.ranks[0]),
    rows.map((r) => r.ranks[4]),
  );
  // Tied scores share the rank.
  const tied = { ...record, ranks: { ...record.ranks, '1': record.ranks['1'].map((r, i) => (i < 2 ? { ...r, rank: 1 } : r)) } };
  assert.deepEqual(
    bumpSeries(tied)
      .slice(0, 2)
      .map((r) => r.ranks[2]),
    [1, 1],
  );
});

test('Figure 6 sorts by zero-regression rate, best first', () => {
  const rates = byZeroRegression(leaderboardFixture()).map((e) => e.zeroRegressionRate);
  assert.deepEqual(
    rates,
    [...rates].sort((a, b) => b - a),
  );
});

test('the frontier is drawn in dollars when every entry has a price, else in tokens and says so', () => {
  const record = leaderboardFixture();
  const dollars = costAxis(record);
  assert.match(dollars.title, /\$/);
  const line = frontierPoints(record, dollars.value);
  assert.ok(line.length >= 2);
  assert.deepEqual(
    line.map((p) => p.x),
    [...line.map((p) => p.x)].sort((a, b) => a - b),
  );
  const unpriced = { ...record, entries: record.entries.map((e, i) => (i === 0 ? { ...e, costPerTask: null } : e)) };
  assert.match(costAxis(unpriced).title, /Tokens per task/);
});
