// Every metric of a run, once: how the row's field is computed from a run's lines, how the
// runs' average treats it, and how each display shows it — the chart's runs table, `sweci
// summarize` (and the experiment report's index, which shows its numbers), the exported
// metrics.csv/json and `sweci compare`. A display without an entry here does not show the
// metric. One entry per field of runMetricsRowSchema (the type below refuses a missing or an
// extra one); entries are in display order. Pure: the chart webview bundles it. The runs table's
// words (headings, tooltips, cells) are literal @vscode/l10n calls, read when shown: the chart
// page (and an exported report given a bundle) shows them in the display language, and
// `npm run l10n` collects them; the other displays are the CLI's and stay English.
import * as l10n from '@vscode/l10n';
import { evoScore } from './evo-score';
import { formatA, formatDuration, formatTokens } from './metric-format';
import type { ReferenceLine, ReferenceSummary } from './reference-summary';
import type { RegressionSummary } from './regressions';
import { flaggedNote, flaggedScore, type FlaggedCount, type FlaggedLine, type RunFlag } from './run-flags';
import type { MetricId, RunMetricsRow } from './run-metrics-row';
import { scoreFlags, type ScoringRules } from './scored-line';

/** What a column's `compute` reads: one run's lines and what runMetrics worked out from them once. */
export interface ScoredRun {
  lines: readonly ScoredLine[];
  /** The reference summary; undefined without a baseline. */
  summary: ReferenceSummary | undefined;
  regressions: RegressionSummary;
  /** a(c) of the last line whose pytest ran; null without a baseline. */
  finalA: number | null;
  /** Tokens summed over every line; seconds over iterations 1.. (the base run is shared by all runs). */
  usage: { tokensIn: number; tokensOut: number; timeSec: number };
  maxIterations: number;
  gamma: number;
  scoring: ScoringRules | undefined;
}

/** The fields of a line a column may read (run-metrics.ts RunLine fits it). */
export type ScoredLine = ReferenceLine & FlaggedLine;

/** What a display knows besides the row: γ as chosen now and the run's padded a values. */
export interface MetricView {
  gamma: number;
  /** The reference's a values padded to N; [] without a baseline. */
  evoA: readonly number[];
}

/** What an average says besides its means: how many runs, and which of them are flagged. */
export interface AverageNotes {
  count: number;
  /** Rows the means include whose scores rest on a flag. */
  flagged: FlaggedCount;
  /** Solved rows whose scores rest on a flag. */
  solvedFlagged: FlaggedCount;
}

/** One side of `sweci compare`: its integrity flags, and those its scores rest on. */
export interface CompareSideFlags {
  flags: readonly RunFlag[];
  scoreFlags: readonly RunFlag[];
}

export interface MetricColumn<K extends MetricId> {
  compute: (run: ScoredRun) => RunMetricsRow[K];
  /**
   * The average row over runs: 'present' the mean over rows with a value (null when none has
   * one), 'rate' a boolean's share of true, 'mean' the plain mean. Absent: not averaged.
   */
  average?: 'present' | 'rate' | 'mean';
  /** The cell shows a score the flags put in doubt: every display names them beside it (⚑). */
  doubt?: (m: RunMetricsRow) => boolean;
  /** The chart's runs table: header (of the slider's γ), its tooltip, the cell; each read when shown, in the display language. */
  runsTable?: {
    head: (gamma: number) => string;
    about: () => string;
    cell: (m: RunMetricsRow, view: MetricView) => string;
    cls?: string;
  };
  /** `sweci summarize` (table, Markdown, CSV) and the experiment report's index. */
  summary?: {
    head: string;
    /** The experiment report's header. */
    reportHead: string;
    cell: (m: RunMetricsRow) => string;
    /** The average row's cell; `numeric` (CSV) keeps it a bare number. */
    average: (v: number | null, notes: AverageNotes, numeric: boolean) => string;
    /** Followed by EvoScore at the other γ asked for. */
    gammas?: true;
  };
  /** The exported metrics.csv and metrics.json. */
  export?: { key: string; value: (m: RunMetricsRow, view: MetricView) => number | boolean | string | null };
  /** `sweci compare`: side A, side B (and B − A) under `head`; `keys` name them in its JSON. */
  compare?: {
    head: string;
    keys: readonly [string, string];
    delta?: true;
    cell: (v: number | boolean | null, side: CompareSideFlags) => string;
    average: (v: number | null, notes: AverageNotes) => string;
  };
}

export type MetricColumns = { [K in MetricId]: MetricColumn<K> };

/** "0.1234", or "–" for no value. */
export const fixed = (v: number | null, digits = 4): string => (v === null ? '–' : v.toFixed(digits));
const round = (x: number) => Math.round(x * 1e6) / 1e6;
const roundOrNull = (x: number | null) => (x === null ? null : round(x));
const yesNo = (v: boolean) => (v ? l10n.t('yes') : l10n.t('no'));
const oneZero = (v: boolean) => (v ? '1' : '0');
/** An average that includes flagged runs says how many: "0.5000 (1 flagged: inflated)". */
const withNote = (v: string, count: FlaggedCount) => (count.runs ? `${v} (${flaggedNote(count)})` : v);
const always = () => true;
/** "2", or with crashed iterations "2 crashed" / "1 + 2 crashed". */
const regressionsCell = (m: RunMetricsRow) => (m.crashed ? `${m.regressions ? `${m.regressions} + ` : ''}${m.crashed} crashed` : String(m.regressions));

export const METRIC_COLUMNS = {
  // First in the export: the γ its evoscore_gamma is at. (The row itself keeps the schema's order.)
  gamma: {
    compute: (r) => r.gamma,
    export: { key: 'gamma', value: (_m, v) => v.gamma },
  },
  evoScore: {
    compute: (r) => (r.summary ? evoScore(r.summary.a, r.gamma) : null),
    average: 'present',
    doubt: always,
    runsTable: {
      head: (gamma) => l10n.t('EvoScore(γ={0})', gamma.toFixed(2)),
      about: () => l10n.t('Σ γ^i·a_i / Σ γ^i over the maximum number of iterations (a run that stopped early counts its last value)'),
      // γ moves in the webview: recomputed from the run's padded a values.
      cell: (_m, v) => (v.evoA.length ? evoScore(v.evoA, v.gamma).toFixed(3) : '—'),
      cls: 'num',
    },
    export: { key: 'evoscore_gamma', value: (_m, v) => (v.evoA.length ? round(evoScore(v.evoA, v.gamma)) : null) },
  },
  evoScoreReference: {
    compute: (r) => (r.summary ? r.summary.evoScore : null),
    average: 'present',
    doubt: always,
    runsTable: {
      head: () => l10n.t('EvoScore(γ=1) ref.'),
      about: () => l10n.t('The reference harness’s own score: the mean of a over N iterations, clamped and padded'),
      cell: (m) => (m.evoScoreReference === null ? '—' : m.evoScoreReference.toFixed(3)),
      cls: 'num',
    },
    summary: { head: 'EvoScore(γ=1)', reportHead: 'EvoScore(γ=1)', cell: (m) => fixed(m.evoScoreReference), average: (v) => fixed(v), gammas: true },
    export: { key: 'evoscore_1', value: (m) => roundOrNull(m.evoScoreReference) },
    compare: {
      head: 'EvoScore',
      keys: ['a', 'b'],
      delta: true,
      // A flagged side's score is marked with ⚑ and the flags it rests on (all its flags listed under the table).
      cell: (v, s) => {
        const text = fixed(v as number | null);
        return s.scoreFlags.length ? flaggedScore(text, s.scoreFlags) : s.flags.length ? `${text} ⚑` : text;
      },
      average: (v, n) => withNote(fixed(v), n.flagged),
    },
  },
  solved: {
    compute: (r) => r.summary?.solved === 1,
    average: 'rate',
    doubt: (m) => m.solved,
    runsTable: { head: () => l10n.t('solved'), about: () => l10n.t('Every target test passed at some iteration'), cell: (m) => yesNo(m.solved) },
    summary: {
      head: 'solved',
      reportHead: 'solved',
      cell: (m) => oneZero(m.solved),
      // "0.7500 (3 solved, 1 flagged: inflated)": which of the solved runs are flagged.
      average: (v, n, numeric) => {
        const note = numeric ? '' : flaggedNote(n.solvedFlagged);
        return note ? `${fixed(v)} (${Math.round((v ?? 0) * n.count)} solved, ${note})` : fixed(v);
      },
    },
    export: { key: 'solved', value: (m) => m.solved },
    compare: {
      head: 'solved',
      keys: ['solvedA', 'solvedB'],
      cell: (v, s) => (v ? flaggedScore('1', s.scoreFlags) : '0'),
      average: (v, n) => withNote(fixed(v), n.solvedFlagged),
    },
  },
  zeroRegression: {
    compute: (r) => r.summary?.zeroRegression === 1,
    average: 'rate',
    runsTable: {
      head: () => l10n.t('zero-regression'),
      about: () => l10n.t('The passed count never dropped from one pytest run to the next'),
      cell: (m) => yesNo(m.zeroRegression),
    },
    summary: { head: 'zero_regression', reportHead: 'zero regression', cell: (m) => oneZero(m.zeroRegression), average: (v) => fixed(v) },
    export: { key: 'zero_regression', value: (m) => m.zeroRegression },
    compare: { head: 'zero_reg', keys: ['zeroRegressionA', 'zeroRegressionB'], cell: (v) => oneZero(v === true), average: (v) => fixed(v) },
  },
  regressions: {
    compute: (r) => r.regressions.count,
    average: 'mean',
    runsTable: {
      head: () => l10n.t('regressions'),
      about: () => l10n.t('How many times the passed count dropped'),
      cell: (m) => String(m.regressions),
      cls: 'num',
    },
    // A crashed iteration (gap −1) is not a comparison point, so the count leaves it out; but it
    // lost every test that passed before it, so the summary shows it beside the count, never a bare 0.
    summary: { head: 'regressions', reportHead: 'regressions', cell: (m) => regressionsCell(m), average: (v) => fixed(v, 2) },
    export: { key: 'regressions', value: (m) => m.regressions },
  },
  finalA: {
    compute: (r) => r.finalA,
    average: 'present',
    runsTable: { head: () => l10n.t('final a(c)'), about: () => l10n.t('a of the last iteration'), cell: (m) => formatA(m.finalA), cls: 'num' },
    export: { key: 'final_a', value: (m) => roundOrNull(m.finalA) },
  },
  iterations: {
    compute: (r) => Math.max(0, r.lines.length - 1),
    average: 'mean',
    runsTable: {
      head: () => l10n.t('iterations'),
      about: () => l10n.t('Completed iterations'),
      cell: (m) => (m.crashed ? l10n.t('{0} ({1} crashed)', m.iterations, m.crashed) : String(m.iterations)),
      cls: 'num wrap',
    },
    summary: { head: 'iterations', reportHead: 'iterations', cell: (m) => String(m.iterations), average: (v) => fixed(v, 2) },
    export: { key: 'iterations', value: (m) => m.iterations },
  },
  // Shown in the iterations cell of the runs table.
  crashed: {
    compute: (r) => r.lines.slice(1).filter((l) => l.gap < 0).length,
  },
  // N: the summaries name it in each table's title.
  maxIterations: {
    compute: (r) => r.maxIterations,
  },
  tokensIn: {
    compute: (r) => r.usage.tokensIn,
    average: 'mean',
    // The runs table shows both counts in one cell.
    runsTable: {
      head: () => l10n.t('tokens in / out'),
      about: () => l10n.t('Summed over both roles and all iterations, where the agents report them'),
      cell: (m) => (m.tokensIn + m.tokensOut === 0 ? l10n.t('none recorded') : `${formatTokens(m.tokensIn)} / ${formatTokens(m.tokensOut)}`),
      cls: 'num wrap',
    },
    summary: { head: 'tokens_in', reportHead: 'tokens in', cell: (m) => String(m.tokensIn), average: (v) => fixed(v, 0) },
    export: { key: 'tokens_in', value: (m) => m.tokensIn },
  },
  tokensOut: {
    compute: (r) => r.usage.tokensOut,
    average: 'mean',
    summary: { head: 'tokens_out', reportHead: 'tokens out', cell: (m) => String(m.tokensOut), average: (v) => fixed(v, 0) },
    export: { key: 'tokens_out', value: (m) => m.tokensOut },
  },
  timeSec: {
    compute: (r) => r.usage.timeSec,
    average: 'mean',
    runsTable: { head: () => l10n.t('time'), about: () => l10n.t('Agent time plus pytest time'), cell: (m) => formatDuration(m.timeSec), cls: 'num' },
    summary: { head: 'time_s', reportHead: 'time (s)', cell: (m) => m.timeSec.toFixed(1), average: (v) => fixed(v, 1) },
    export: { key: 'time_sec', value: (m) => round(m.timeSec) },
  },
  // Named beside every score it puts in doubt (`doubt`), and in the export.
  scoreFlags: {
    compute: (r) => scoreFlags(r.lines, r.scoring),
    export: { key: 'score_flags', value: (m) => m.scoreFlags.join(' ') },
  },
} satisfies MetricColumns;

/** A column with its field's name, as the displays walk them. */
export interface MetricColumnEntry extends MetricColumn<MetricId> {
  id: MetricId;
}

/** The columns in display order. */
export const METRIC_COLUMN_LIST: readonly MetricColumnEntry[] = (Object.keys(METRIC_COLUMNS) as MetricId[]).map((id) => {
  const column: MetricColumn<MetricId> = (METRIC_COLUMNS as MetricColumns)[id];
  return { ...column, id };
});
