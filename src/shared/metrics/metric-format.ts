// Number formats shared by the chart (tooltips, runs table), the Transcript panel and the metric columns.
// A duration's units go through @vscode/l10n (English unless a view configured its language).
import * as l10n from '@vscode/l10n';

/** a(c) signed, three decimals; a value that rounds to 0 is +0.000, never −0.000 (an axis tick a rounding error puts below 0). */
export function formatA(a: number | null): string {
  if (a === null) return '—';
  const r = Number(a.toFixed(3));
  return (r >= 0 ? '+' : '−') + Math.abs(r).toFixed(3);
}

export function formatTokens(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

export function formatDuration(sec: number): string {
  if (sec < 60) return l10n.t('{0} s', sec.toFixed(1));
  const m = Math.floor(sec / 60);
  if (m < 60) return l10n.t('{0} min {1} s', m, Math.round(sec % 60));
  return l10n.t('{0} h {1} min', Math.floor(m / 60), m % 60);
}
