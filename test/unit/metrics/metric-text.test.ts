// The chart's runs table and flag labels are translated in the webview (webview-ui/metric-text.ts)
// from literal l10n.t calls; the CLI and the exported report print the English of
// src/shared/metrics. Without a bundle the two must read the same, so a wording changed on one
// side only fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as l10n from '@vscode/l10n';
import { METRIC_COLUMN_LIST } from '../../../src/shared/metrics/metric-columns';
import { RUN_FLAGS, RUN_FLAG_LABELS } from '../../../src/shared/metrics/run-flags';
import { RUNS_TABLE_TEXT, runFlagLabel, type RunsTableMetric } from '../../../webview-ui/metric-text';

test('without a bundle the runs table reads the shared English, for every column and γ', () => {
  const shown = METRIC_COLUMN_LIST.filter((c) => c.runsTable);
  assert.deepEqual(Object.keys(RUNS_TABLE_TEXT).sort(), shown.map((c) => c.id).sort());
  for (const c of shown) {
    const text = RUNS_TABLE_TEXT[c.id as RunsTableMetric];
    for (const gamma of [0.5, 1]) {
      const head = c.runsTable?.head;
      assert.equal(text.head(gamma), typeof head === 'function' ? head(gamma) : head, `${c.id}'s header at γ=${gamma}`);
    }
    assert.equal(text.about(), c.runsTable?.about, `${c.id}'s tooltip`);
  }
});

test('without a bundle the flag labels read the shared English', () => {
  for (const f of RUN_FLAGS) assert.equal(runFlagLabel(f), RUN_FLAG_LABELS[f], f);
});

test('with a bundle the headers, tooltips and flag labels are translated', () => {
  l10n.config({ contents: { solved: 'SOLVED', 'EvoScore(γ={0})': 'EVO({0})', 'Agent time plus pytest time': 'TIME', 'not isolated': 'NOT ISOLATED' } });
  try {
    assert.equal(RUNS_TABLE_TEXT.solved.head(1), 'SOLVED');
    assert.equal(RUNS_TABLE_TEXT.evoScore.head(0.5), 'EVO(0.50)');
    assert.equal(RUNS_TABLE_TEXT.timeSec.about(), 'TIME');
    assert.equal(runFlagLabel('not-isolated'), 'NOT ISOLATED');
  } finally {
    l10n.config({ contents: {} });
  }
});
