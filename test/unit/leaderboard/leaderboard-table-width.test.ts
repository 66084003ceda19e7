// `sweci leaderboard --format table` in a terminal: by default every line keeps to 100
// characters (the main columns, long names cut in their middle, text wrapped); --wide (the
// `wide` option) gives every column as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatLeaderboard } from '../../../src/core/leaderboard/leaderboard-format';
import { leaderboardFixture } from '../helpers/leaderboard-fixture';

const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

test('the table keeps to 100 characters a line, with the main columns and every entry', () => {
  const record = leaderboardFixture();
  const text = formatLeaderboard(record, 'table');
  assert.ok(widest(text) <= 100, `widest line ${widest(text)}:\n${text}`);
  assert.match(text, /^group {2}rank {2}entry +EvoScore\(γ=1\) +95% CI +solved +zero reg\. +cost\/task$/m);
  for (const e of record.entries) assert.ok(text.includes(e.label), e.label);
  assert.match(text, /--wide/, 'the notes say how to see every column');
});

test('long labels are cut in their middle, keeping the end that tells them apart, and still fit', () => {
  const record = leaderboardFixture({ entries: 4 });
  const long = (i: number) => `custom / custom · a-very-long-experiment-folder-name-number-${i}`;
  const renamed = JSON.parse(
    JSON.stringify(record).replace(/"(claude-opus-4\.5|gpt-5\.1|gemini-3-pro|claude-sonnet-4\.5)"/g, (_m, l: string) =>
      JSON.stringify(long(['claude-opus-4.5', 'gpt-5.1', 'gemini-3-pro', 'claude-sonnet-4.5'].indexOf(l))),
    ),
  ) as typeof record;
  const text = formatLeaderboard(renamed, 'table');
  assert.ok(widest(text) <= 100, `widest line ${widest(text)}:\n${text}`);
  for (let i = 0; i < 4; i++) assert.match(text, new RegExp(`custom.*….*number-${i}`));
});

test('--wide gives every column, wider than 100', () => {
  const record = leaderboardFixture();
  const text = formatLeaderboard(record, 'table', { wide: true });
  assert.ok(widest(text) > 100);
  assert.match(text, /tokens in\/out\/cached per task/);
  assert.match(text, /cost frontier/);
});
