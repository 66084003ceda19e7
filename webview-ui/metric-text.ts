// The runs table's headings and tooltips and the run flags' labels, translated where the chart
// shows them. The English is defined once in src/shared/metrics (metric-columns.ts, run-flags.ts),
// which the CLI and the exported report print as it is; here each is a literal `l10n.t` call,
// keyed by the metric's or flag's id, so that `npm run l10n` puts it in the bundle (a call on a
// variable would not be collected). test/unit/webview/metric-text.test.ts checks each English
// text here is the shared one, and the types below refuse a missing or an extra id.
import * as l10n from '@vscode/l10n';
import { METRIC_COLUMNS } from '../src/shared/metrics/metric-columns';
import type { RunFlag } from '../src/shared/metrics/run-flags';

/** The metrics that have a column in the runs table. */
export type RunsTableMetric = {
  [K in keyof typeof METRIC_COLUMNS]: (typeof METRIC_COLUMNS)[K] extends { runsTable: object } ? K : never;
}[keyof typeof METRIC_COLUMNS];

export interface HeadText {
  head: (gamma: number) => string;
  about: () => string;
}

export const RUNS_TABLE_TEXT: { readonly [K in RunsTableMetric]: HeadText } = {
  evoScore: {
    head: (gamma) => l10n.t('EvoScore(γ={0})', gamma.toFixed(2)),
    about: () => l10n.t('Σ γ^i·a_i / Σ γ^i over the maximum number of iterations (a run that stopped early counts its last value)'),
  },
  evoScoreReference: {
    head: () => l10n.t('EvoScore(γ=1) ref.'),
    about: () => l10n.t('The reference harness’s own score: the mean of a over N iterations, clamped and padded'),
  },
  solved: { head: () => l10n.t('solved'), about: () => l10n.t('Every target test passed at some iteration') },
  zeroRegression: { head: () => l10n.t('zero-regression'), about: () => l10n.t('The passed count never dropped from one pytest run to the next') },
  regressions: { head: () => l10n.t('regressions'), about: () => l10n.t('How many times the passed count dropped') },
  finalA: { head: () => l10n.t('final a(c)'), about: () => l10n.t('a of the last iteration') },
  iterations: { head: () => l10n.t('iterations'), about: () => l10n.t('Completed iterations') },
  tokensIn: { head: () => l10n.t('tokens in / out'), about: () => l10n.t('Summed over both roles and all iterations, where the agents report them') },
  timeSec: { head: () => l10n.t('time'), about: () => l10n.t('Agent time plus pytest time') },
};

const FLAG_TEXT: { readonly [F in RunFlag]: () => string } = {
  inflated: () => l10n.t('inflated (passes the target never had)'),
  'harness-tampering': () => l10n.t('harness tampering (changes how pytest collects or reports)'),
  tampered: () => l10n.t('tests changed (restored before pytest)'),
  'outside-changes': () => l10n.t('changes outside app/code'),
  oversized: () => l10n.t('files too large to commit'),
  'not-isolated': () => l10n.t('not isolated'),
  'network-open': () => l10n.t('an agent had the open network (sweci.agents.network)'),
};

/** A run flag's label in the display language (RUN_FLAG_LABELS in English). */
export const runFlagLabel = (flag: RunFlag): string => FLAG_TEXT[flag]();
