// What the Leaderboard panel draws, worked out from the record: each provider's colour and
// marker, the cells' wording, and each figure's points. Pure (no DOM, no Chart.js), so the
// panel and the exported page draw the same and unit tests read it.
import * as l10n from '@vscode/l10n';
import type { LeaderboardEntry, LeaderboardRecord } from '../src/shared/leaderboard-record';

export type Marker = 'circle' | 'triangle' | 'rect' | 'rectRot' | 'star' | 'crossRot';
export interface ProviderStyle {
  colour: string;
  marker: Marker;
  /** Canvas line dash; empty: solid. */
  dash: number[];
}

const MARKERS: Marker[] = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'];
const DASHES: number[][] = [[], [8, 4], [2, 3]];
const HUMAN_PROVIDER = 'human history';
const UNKNOWN_PROVIDER = 'provider not given';

/**
 * The group a figure colours an entry by, and the table's Provider: the provider as the entry
 * gives it (leaderboard.json), else "human history" for the developers' replay, else "not given".
 */
export function providerOf(e: LeaderboardEntry): string {
  return e.provider ?? (e.kind === 'human-history' ? HUMAN_PROVIDER : UNKNOWN_PROVIDER);
}

/**
 * Each provider's look, in table order: the palette's colours in turn with a marker each, and
 * past the last colour the colours again with another marker and dash, so no two providers are
 * drawn alike. The developers' history keeps the history colour (as in the chart).
 */
export function providerStyles(record: LeaderboardRecord, palette: { series: readonly string[]; historySeries: string }): Map<string, ProviderStyle> {
  const colours = palette.series.length ? palette.series : [palette.historySeries];
  const out = new Map<string, ProviderStyle>();
  let k = 0;
  for (const e of record.entries) {
    const p = providerOf(e);
    if (out.has(p)) continue;
    if (e.kind === 'human-history') {
      out.set(p, { colour: palette.historySeries, marker: 'rect', dash: [6, 3] });
      continue;
    }
    const round = Math.floor(k / colours.length);
    out.set(p, { colour: colours[k % colours.length], marker: MARKERS[k % MARKERS.length], dash: DASHES[round % DASHES.length] });
    k++;
  }
  return out;
}

export const formatScore = (n: number): string => n.toFixed(3);
export const formatRate = (n: number): string => `${(n * 100).toFixed(0)}%`;
export const formatInterval = ([low, high]: readonly [number, number], f: (n: number) => string): string => `${f(low)}–${f(high)}`;
export const formatCost = (n: number | null): string => (n === null ? '—' : `$${n < 1 ? n.toFixed(3) : n.toFixed(2)}`);
export function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return n.toFixed(0);
}

/** A value axis's tick: two decimals at most, and never "-0.0" (a tick a rounding error puts just below 0). */
export const valueTick = (v: number | string): string => {
  const n = Math.round(Number(v) * 100) / 100;
  return String(n === 0 ? 0 : n);
};

/** A release date (YYYY-MM-DD) as days since 1970, the x of Figure 4. */
export const releaseDay = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
export const dayLabel = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 7);

/** Figure 4: per provider, its entries with a release date, oldest first; and the entries left out (no date). */
export function releaseSeries(record: LeaderboardRecord): { series: { provider: string; entries: LeaderboardEntry[] }[]; undated: string[] } {
  const by = new Map<string, LeaderboardEntry[]>();
  const undated: string[] = [];
  for (const e of record.entries) {
    if (!e.released) {
      undated.push(e.label);
      continue;
    }
    const p = providerOf(e);
    by.set(p, [...(by.get(p) ?? []), e]);
  }
  const series = [...by].map(([provider, entries]) => ({ provider, entries: entries.sort((a, b) => (a.released ?? '').localeCompare(b.released ?? '')) }));
  return { series, undated };
}

/** Figure 5: each entry's rank and EvoScore at each γ (in the record's order of γ). */
export function bumpSeries(record: LeaderboardRecord): { label: string; ranks: (number | null)[]; scores: (number | null)[] }[] {
  return record.entries.map((e) => {
    const at = record.gammas.map((g) => record.ranks[g]?.find((r) => r.label === e.label));
    return { label: e.label, ranks: at.map((r) => r?.rank ?? null), scores: at.map((r) => r?.evoScore ?? null) };
  });
}

/** Figure 6: the entries by zero-regression rate, best first (ties in table order). */
export function byZeroRegression(record: LeaderboardRecord): LeaderboardEntry[] {
  return record.entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.zeroRegressionRate - a.e.zeroRegressionRate || a.i - b.i)
    .map(({ e }) => e);
}

/**
 * The cost frontier's x: dollars per task when every agent entry has a price, else tokens per
 * task (said in the axis title). An entry with no value (the developers' history, which calls no
 * model) is left out of the figure.
 */
export function costAxis(record: LeaderboardRecord): { title: string; value: (e: LeaderboardEntry) => number | null; format: (n: number) => string } {
  const agents = record.entries.filter((e) => e.kind === 'agent');
  if (agents.every((e) => e.costPerTask !== null))
    return { title: l10n.t('Cost per task ($)'), value: (e) => e.costPerTask, format: (n) => `$${n.toFixed(2)}` };
  const sources = new Set(agents.map((e) => e.tokensPerTask.source));
  const counted = sources.size === 1 && sources.has('wire');
  return {
    title: counted
      ? l10n.t('Tokens per task, input + output (counted by the gateway; some prices unknown)')
      : l10n.t('Tokens per task, input + output (as the agents reported them; some prices unknown)'),
    value: (e) => (e.tokensPerTask.source === 'none' ? null : e.tokensPerTask.input + e.tokensPerTask.output),
    format: formatCount,
  };
}

/**
 * The figures that would be empty, each with the one line the page shows instead: what would
 * fill it. Release dates come from leaderboard.json (`released`); costs from prices
 * (sweci.agents.prices) or tokens the gateway counted. A figure whose every value is 0 has
 * nothing to show either (its ticks would all read 0).
 */
export function emptyFigures(record: LeaderboardRecord): { release?: string; cost?: string } {
  const out: { release?: string; cost?: string } = {};
  if (releaseSeries(record).series.length === 0)
    out.release = 'No entry has a release date. Give each entry its model’s “released” (YYYY-MM-DD) in leaderboard.json to draw EvoScore by release date.';
  const axis = costAxis(record);
  if (!record.entries.some((e) => (axis.value(e) ?? 0) > 0))
    out.cost =
      'No entry has a cost or a token count. Run the agents through the model gateway with prices (sweci.agents.prices) to draw EvoScore against cost per task.';
  return out;
}

/** The frontier's entries, cheapest first: the line that joins them. */
export function frontierPoints(record: LeaderboardRecord, x: (e: LeaderboardEntry) => number | null): { x: number; y: number; label: string }[] {
  return record.entries
    .filter((e) => e.onCostFrontier)
    .flatMap((e) => {
      const at = x(e);
      return at === null ? [] : [{ x: at, y: e.evoScore['1'] ?? 0, label: e.label }];
    })
    .sort((a, b) => a.x - b.x);
}

/** The lowest and highest value an axis must show: every value and interval end. */
export function extent(values: readonly number[]): { min: number; max: number } {
  return { min: Math.min(...values), max: Math.max(...values) };
}
