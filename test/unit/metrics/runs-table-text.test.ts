// The runs table's words are defined once, in src/shared/metrics (metric-columns.ts' runsTable,
// run-flags.ts' labels, metric-format.ts' duration units), as @vscode/l10n calls: without a
// bundle (the CLI, an exported report written without one) they read the English; with the
// display language's bundle (the chart page) every heading, tooltip, worded cell and flag label
// is translated, and the numbers in the cells stay what they were.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as l10n from '@vscode/l10n';
import { getL10nPseudoLocalized, type l10nJsonFormat } from '@vscode/l10n-dev';
import { METRIC_COLUMN_LIST } from '../../../src/shared/metrics/metric-columns';
import { formatDuration } from '../../../src/shared/metrics/metric-format';
import { RUN_FLAGS, runFlagLabel } from '../../../src/shared/metrics/run-flags';
import type { RunMetricsRow } from '../../../src/shared/metrics/run-metrics-row';
import { repoRoot } from '../helpers/repo-root';

const ROW: RunMetricsRow = {
  evoScore: 0.25,
  gamma: 1,
  evoScoreReference: 0.5,
  solved: true,
  zeroRegression: false,
  regressions: 2,
  finalA: 0.75,
  iterations: 3,
  crashed: 1,
  maxIterations: 5,
  tokensIn: 0,
  tokensOut: 0,
  timeSec: 65,
  scoreFlags: [],
};
const VIEW = { gamma: 0.5, evoA: [0.5, 0.25, 0] };
const SHOWN = METRIC_COLUMN_LIST.flatMap((c) => (c.runsTable ? [{ id: c.id, ...c.runsTable }] : []));

/** The table as it reads now: each column's heading, tooltip and cell for ROW. */
function table(row: RunMetricsRow = ROW) {
  return SHOWN.map((c) => ({ id: c.id, head: c.head(VIEW.gamma), about: c.about(), cell: c.cell(row, VIEW) }));
}

/** Runs `fn` with @vscode/l10n configured with `bundle`, then back to none (English). */
function inLanguage<T>(bundle: l10nJsonFormat, fn: () => T): T {
  l10n.config({ contents: bundle });
  try {
    return fn();
  } finally {
    l10n.config({ contents: {} });
  }
}

const pseudo = () => getL10nPseudoLocalized(JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as l10nJsonFormat);

test('without a bundle the runs table reads English', () => {
  const byId = Object.fromEntries(table().map((c) => [c.id, c]));
  assert.equal(byId.evoScore.head, 'EvoScore(γ=0.50)');
  assert.equal(byId.solved.head, 'solved');
  assert.equal(byId.solved.cell, 'yes');
  assert.equal(byId.zeroRegression.cell, 'no');
  assert.equal(byId.iterations.cell, '3 (1 crashed)');
  assert.equal(byId.tokensIn.cell, 'none recorded');
  assert.equal(byId.timeSec.cell, '1 min 5 s');
  assert.equal(byId.timeSec.about, 'Agent time plus pytest time');
  assert.equal(table({ ...ROW, crashed: 0, tokensIn: 12_000, tokensOut: 800 }).find((c) => c.id === 'tokensIn')?.cell, '12k / 800');
  assert.equal(runFlagLabel('not-isolated'), 'not isolated');
  assert.deepEqual([formatDuration(5), formatDuration(3 * 3600 + 120)], ['5.0 s', '3 h 2 min']);
});

test('with the pseudo-localized bundle every word of the table is translated and every number stays', () => {
  const english = table();
  const translated = inLanguage(pseudo(), () => table());
  const digits = (s: string) => s.match(/\d+(?:\.\d+)?/g) ?? [];
  for (const [i, was] of english.entries()) {
    const now = translated[i];
    assert.notEqual(now.head, was.head, `${was.id}'s heading`);
    assert.notEqual(now.about, was.about, `${was.id}'s tooltip`);
    if (/\p{L}/u.test(was.cell)) assert.notEqual(now.cell, was.cell, `${was.id}'s cell ${was.cell} has words`);
    else assert.equal(now.cell, was.cell, `${was.id}'s cell ${was.cell} is a number`);
    assert.deepEqual(digits(now.cell), digits(was.cell), `${was.id}'s numbers`);
  }
  const labels = inLanguage(pseudo(), () => RUN_FLAGS.map(runFlagLabel));
  RUN_FLAGS.forEach((f, i) => assert.notEqual(labels[i], runFlagLabel(f), `${f}'s label`));
});

test('a given bundle reaches the cells, headings and durations', () => {
  const now = inLanguage({ yes: 'ja', 'EvoScore(γ={0})': 'EVO({0})', '{0} min {1} s': '{0} Min. {1} Sek.', 'not isolated': 'nicht isoliert' }, () => ({
    table: table(),
    flag: runFlagLabel('not-isolated'),
  }));
  const byId = Object.fromEntries(now.table.map((c) => [c.id, c]));
  assert.equal(byId.solved.cell, 'ja');
  assert.equal(byId.evoScore.head, 'EVO(0.50)');
  assert.equal(byId.timeSec.cell, '1 Min. 5 Sek.');
  assert.equal(now.flag, 'nicht isoliert');
});
