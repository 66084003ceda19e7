import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bumpSeries,
  byZeroRegression,
  costAxis,
  emptyFigures,
  frontierPoints,
  providerOf,
  providerStyles,
  releaseSeries,
  valueTick,
} from '../../../webview-ui/leaderboard-model';
import { formatA } from '../../../src/shared/metrics/metric-format';
import { leaderboardFixture } from '../helpers/leaderboard-fixture';

const palette = { series: ['#1a85ff', '#d18616', '#652d90', '#e51400'], historySeries: '#388a34' };

test('each provider is drawn unlike every other, the history in its own colour', () => {
  const record = leaderboardFixture();
  const styles = providerStyles(record, palette);
  assert.equal(styles.size, 9);
  const looks = [...styles.values()].map((s) => `${s.colour} ${s.marker} ${s.dash.join(',')}`);
  assert.equal(new Set(looks).size, looks.length);
  assert.equal(styles.get('human history')?.colour, '#388a34');
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

test("a human entry's provider is shown as leaderboard.json gives it, in the history's colour; without one it reads human history", () => {
  const record = leaderboardFixture();
  const human = record.entries.find((e) => e.kind === 'human-history')!;
  assert.equal(providerOf(human), 'human history');
  const named = { ...record, entries: record.entries.map((e) => (e === human ? { ...e, provider: 'Upstream maintainers' } : e)) };
  const entry = named.entries.find((e) => e.kind === 'human-history')!;
  assert.equal(providerOf(entry), 'Upstream maintainers');
  assert.equal(providerStyles(named, palette).get('Upstream maintainers')?.colour, '#388a34');
});

test('a figure with nothing to draw is named, with what would fill it', () => {
  assert.deepEqual(emptyFigures(leaderboardFixture()), {}, 'the paper-shaped record draws all four');
  const bare = leaderboardFixture({ entries: 3 });
  const none = {
    ...bare,
    entries: bare.entries.map((e) => ({ ...e, released: null, costPerTask: null, tokensPerTask: { input: 0, output: 0, cached: 0, source: 'none' as const } })),
  };
  const empty = emptyFigures(none);
  assert.match(empty.release ?? '', /release date.*“released”.*leaderboard\.json/);
  assert.match(empty.cost ?? '', /cost.*prices \(sweci\.agents\.prices\)/);
  // Costs of 0 (nothing priced) draw nothing either.
  const zero = { ...none, entries: none.entries.map((e) => ({ ...e, costPerTask: 0 })) };
  assert.ok(emptyFigures(zero).cost);
  // One dated entry is enough for the release figure.
  const one = { ...none, entries: none.entries.map((e, i) => (i === 0 ? { ...e, released: '2025-01-01' } : e)) };
  assert.equal(emptyFigures(one).release, undefined);
});

test('an axis tick a rounding error puts just below 0 reads 0, not -0.0', () => {
  assert.equal(valueTick(-1.3877787807814457e-17), '0');
  assert.equal(valueTick(-0), '0');
  assert.equal(valueTick(0.30000000000000004), '0.3');
  assert.equal(valueTick(-0.1), '-0.1');
  assert.equal(formatA(-1e-17), '+0.000');
  assert.equal(formatA(-0.0004), '+0.000');
  assert.equal(formatA(-0.25), '−0.250');
});
