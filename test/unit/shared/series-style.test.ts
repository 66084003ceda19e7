// The chart's run colours: the theme's chart colours less those a person cannot tell apart (from
// each other, from the developers' green, from the page), drawn opaque; runs past the last colour
// get another dash and marker, so no two runs are drawn alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colourDistance, distinctColours, MIN_SERIES_DISTANCE, opaque, parseColour } from '../../../webview-ui/colour-distance';
import { seriesStyles } from '../../../webview-ui/series-style';

// VS Code's default light chart colours: blue, orange, purple, red, yellow; green is the history's.
const LIGHT = ['#1a85ff', '#d18616', '#652d90', '#e51400', '#bf8803'];
const GREEN = '#388a34';

test('colours parse from the forms themes use, alpha ignored', () => {
  assert.deepEqual(parseColour('#1a85ff'), [26, 133, 255]);
  assert.deepEqual(parseColour('#FFF'), [255, 255, 255]);
  assert.deepEqual(parseColour('#d1861680'), [209, 134, 22]);
  assert.deepEqual(parseColour('rgba(209, 134, 22, 0.5)'), [209, 134, 22]);
  assert.deepEqual(parseColour('rgb(1 2 3)'), [1, 2, 3]);
  assert.equal(parseColour('var(--x)'), undefined);
  assert.equal(opaque('#d1861680'), 'rgb(209, 134, 22)');
  assert.equal(opaque('tomato'), 'tomato', 'what cannot be parsed is kept');
});

test('a theme colour that looks like one before it is left out (Light Modern’s orange and yellow are ΔE ≈ 10)', () => {
  assert.ok(colourDistance(parseColour('#d18616')!, parseColour('#bf8803')!) < MIN_SERIES_DISTANCE);
  const series = distinctColours(LIGHT, { taken: [GREEN], background: '#ffffff' });
  assert.deepEqual(series, ['rgb(26, 133, 255)', 'rgb(209, 134, 22)', 'rgb(101, 45, 144)', 'rgb(229, 20, 0)']);
  const all = [...series, GREEN].map((c) => parseColour(c)!);
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) assert.ok(colourDistance(all[i], all[j]) >= MIN_SERIES_DISTANCE, `${series[i]} and ${series[j] ?? GREEN}`);
});

test('a translucent or pale colour near the page is left out; the first colour always stays', () => {
  // A highlight colour used as charts.orange: pale on a light page.
  assert.deepEqual(distinctColours(['#1a85ff', '#f5e6d3', '#652d90'], { background: '#ffffff' }), ['rgb(26, 133, 255)', 'rgb(101, 45, 144)']);
  assert.deepEqual(distinctColours(['#fefefe'], { background: '#ffffff' }), ['rgb(254, 254, 254)']);
  assert.deepEqual(distinctColours(['#1a85ff', '#1a85ff']), ['rgb(26, 133, 255)']);
});

test('runs take the colours in turn; past the last, a new dash and marker; the history its own dashed green', () => {
  const palette = { series: ['blue', 'orange', 'purple'], historySeries: 'green' };
  const runs = [{ kind: 'agent' }, { kind: 'human-history' }, { kind: 'agent' }, { kind: 'agent' }, { kind: 'agent' }, { kind: 'human' }] as const;
  const styles = seriesStyles(runs, palette);
  assert.deepEqual(
    styles.map((s) => s.colour),
    ['blue', 'green', 'orange', 'purple', 'blue', 'orange'],
    'the history takes no agent colour',
  );
  assert.equal(styles[1].hollow, true);
  assert.ok(styles[1].dash.length > 0);
  assert.deepEqual(styles[0].dash, [], 'the first round is solid');
  const keys = styles.map((s) => `${s.colour}|${s.dash.join(',')}|${s.marker}`);
  assert.equal(new Set(keys).size, keys.length, `no two runs drawn alike: ${keys.join('; ')}`);
});
