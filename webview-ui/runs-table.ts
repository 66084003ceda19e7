// The table comparing runs: the run, who played it, then each metric column that has a
// `runsTable` entry (src/shared/metrics/metric-columns.ts, which words it through l10n). EvoScore is recomputed there for the chosen
// γ with the same metric functions the extension uses. It fits a panel beside
// the default side bar: headers and text wrap, numbers stay on one line, and a flagged run shows
// ⚑ beside its scores with the flags explained on hover (named once, under the run).
import * as l10n from '@vscode/l10n';
import type { ChartData } from '../src/shared/chart-types';
import { METRIC_COLUMN_LIST } from '../src/shared/metrics/metric-columns';
import { runFlagLabel, type RunFlag } from '../src/shared/metrics/run-flags';
import type { Palette } from './palette';
import { seriesStyles, type SeriesStyle } from './series-style';

/** The metric columns the table shows (metric-columns.ts), in order. */
const METRICS = METRIC_COLUMN_LIST.flatMap((c) => (c.runsTable ? [{ ...c.runsTable, doubt: c.doubt }] : []));

/** Each column's header and what it means (the header's tooltip): the run and its players, then the metrics. */
function heads(gamma: number): ReadonlyArray<readonly [string, string]> {
  return [
    [l10n.t('run'), l10n.t('The run, drawn in the chart as its swatch shows')],
    [l10n.t('who'), l10n.t('Who played the roles')],
    ...METRICS.map(({ head, about }) => [head(gamma), about()] as const),
  ];
}

function cell(tag: 'td' | 'th', text: string, cls?: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

/** The flags explained, one a line, for a tooltip. */
const explained = (flags: readonly RunFlag[]) => flags.map((f) => `⚑ ${runFlagLabel(f)}`).join('\n');

/** A score the flags put in doubt: the score with ⚑, the flags named in its tooltip. */
function flaggedCell(text: string, flags: readonly RunFlag[], cls?: string): HTMLElement {
  if (!flags.length) return cell('td', text, cls);
  const td = cell('td', `${text} ⚑`, [cls, 'doubt'].filter(Boolean).join(' '));
  td.title = `${l10n.t('Rests on: {0}', flags.join(', '))}\n${explained(flags)}`;
  return td;
}

/** A short sample of the run's line (colour, dash, marker) as the chart draws it. */
function swatch(style: SeriesStyle, background: string): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.className = 'run-swatch';
  c.width = 24;
  c.height = 10;
  c.setAttribute('aria-hidden', 'true');
  const ctx = c.getContext('2d');
  if (!ctx) return c;
  ctx.strokeStyle = style.colour;
  ctx.fillStyle = style.colour;
  ctx.lineWidth = 2;
  ctx.setLineDash(style.dash);
  ctx.beginPath();
  ctx.moveTo(0, 5);
  ctx.lineTo(24, 5);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  if (style.marker === 'circle') ctx.arc(12, 5, 3, 0, 2 * Math.PI);
  else ctx.rect(9, 2, 6, 6);
  if (style.hollow) {
    ctx.fillStyle = background;
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.stroke();
  } else ctx.fill();
  return c;
}

export function renderRunsTable(table: HTMLTableElement, data: ChartData, gamma: number, palette: Palette): void {
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const [h, why] of heads(gamma)) {
    const th = head.appendChild(cell('th', h));
    th.title = why;
    // A narrow column may break "EvoScore(γ=…)" before its parenthesis (in any language).
    const text = th.textContent ?? '';
    const paren = text.indexOf('(');
    if (paren > 0) th.replaceChildren(text.slice(0, paren), document.createElement('wbr'), text.slice(paren));
  }
  const body = table.createTBody();
  const styles = seriesStyles(data.runs, palette);
  data.runs.forEach((r, i) => {
    const m = r.metrics;
    const row = body.insertRow();
    row.dataset.run = r.run;
    // The run: its swatch and name; a flagged run names its flags under it, each explained on hover.
    const name = row.appendChild(cell('td', '', r.flags.length ? 'run flagged' : 'run'));
    name.append(swatch(styles[i], palette.background), document.createTextNode(r.run));
    const notes = [...(r.flags.length ? [` ⚑ ${r.flags.join(', ')}`] : []), ...(r.pending ? [` (${l10n.t('iteration pending')})`] : [])];
    for (const n of notes) {
      const sub = document.createElement('span');
      sub.className = 'sub';
      sub.textContent = n;
      name.append(sub);
    }
    if (r.flags.length) name.title = explained(r.flags);
    // Who played each role, a line each ("architect: … · programmer: …").
    const who = row.appendChild(cell('td', '', 'who'));
    const label = r.kind === 'human-history' ? l10n.t('upstream developers') : r.label;
    label.split(' · ').forEach((part, k) => who.append(...(k ? [document.createElement('br')] : []), part));
    who.title = label;
    // A score that rests on a flag says so beside the score and beside solved.
    const view = { gamma, evoA: r.evoA };
    row.append(...METRICS.map((c) => flaggedCell(c.cell(m, view), c.doubt?.(m) ? m.scoreFlags : [], c.cls)));
  });
}
