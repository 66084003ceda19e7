// The table comparing runs. EvoScore is recomputed here for the chosen γ (and γ = 1 as the
// reference reports it) with the same metric functions the extension uses. It fits a panel beside
// the default side bar: headers and text wrap, numbers stay on one line, and a flagged run shows
// ⚑ beside its scores with the flags explained on hover (named once, under the run).
import type { ChartData } from '../src/core/scoring/chart-types';
import { evoScore } from '../src/core/metrics/evo-score';
import { formatA, formatDuration, formatTokens } from './format';
import { RUN_FLAG_LABELS, type RunFlag } from '../src/core/metrics/run-flags';
import type { Palette } from './palette';
import { seriesStyles, type SeriesStyle } from './series-style';

/** Each column's header and what it means (the header's tooltip). */
const HEAD: ReadonlyArray<readonly [string, string]> = [
  ['run', 'The run, drawn in the chart as its swatch shows'],
  ['who', 'Who played the roles'],
  ['EvoScore(γ)', 'Σ γ^i·a_i / Σ γ^i over the maximum number of iterations (a run that stopped early counts its last value)'],
  ['EvoScore(γ=1) ref.', 'The reference harness’s own score: the mean of a over N iterations, clamped and padded'],
  ['solved', 'Every target test passed at some iteration'],
  ['zero-regression', 'The passed count never dropped from one pytest run to the next'],
  ['regressions', 'How many times the passed count dropped'],
  ['final a(c)', 'a of the last iteration'],
  ['iterations', 'Completed iterations'],
  ['tokens in / out', 'Summed over both roles and all iterations, where the agents report them'],
  ['time', 'Agent time plus pytest time'],
];

function cell(tag: 'td' | 'th', text: string, cls?: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

/** The flags explained, one a line, for a tooltip. */
const explained = (flags: readonly RunFlag[]) => flags.map((f) => `⚑ ${RUN_FLAG_LABELS[f]}`).join('\n');

/** A score the flags put in doubt: the score with ⚑, the flags named in its tooltip. */
function flaggedCell(text: string, flags: readonly RunFlag[], cls?: string): HTMLElement {
  if (!flags.length) return cell('td', text, cls);
  const td = cell('td', `${text} ⚑`, [cls, 'doubt'].filter(Boolean).join(' '));
  td.title = `Rests on: ${flags.join(', ')}\n${explained(flags)}`;
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
  for (const [h, why] of HEAD) {
    const th = head.appendChild(cell('th', h === 'EvoScore(γ)' ? `EvoScore(γ=${gamma.toFixed(2)})` : h));
    th.title = why;
    // A narrow column may break "EvoScore(γ=…)" before its parenthesis.
    const text = th.textContent ?? '';
    if (text.startsWith('EvoScore(')) th.replaceChildren('EvoScore', document.createElement('wbr'), text.slice('EvoScore'.length));
  }
  const body = table.createTBody();
  const styles = seriesStyles(data.runs, palette);
  data.runs.forEach((r, i) => {
    const m = r.metrics;
    const row = body.insertRow();
    row.dataset.run = r.run;
    // γ moves in the webview: EvoScore(γ) is recomputed from the run's padded a values.
    const evo = r.evoA.length ? evoScore(r.evoA, gamma).toFixed(3) : '—';
    // The run: its swatch and name; a flagged run names its flags under it, each explained on hover.
    const name = row.appendChild(cell('td', '', r.flags.length ? 'run flagged' : 'run'));
    name.append(swatch(styles[i], palette.background), document.createTextNode(r.run));
    const notes = [...(r.flags.length ? [` ⚑ ${r.flags.join(', ')}`] : []), ...(r.pending ? [' (iteration pending)'] : [])];
    for (const n of notes) {
      const sub = document.createElement('span');
      sub.className = 'sub';
      sub.textContent = n;
      name.append(sub);
    }
    if (r.flags.length) name.title = explained(r.flags);
    // Who played each role, a line each ("architect: … · programmer: …").
    const who = row.appendChild(cell('td', '', 'who'));
    const label = r.kind === 'human-history' ? 'upstream developers' : r.label;
    label.split(' · ').forEach((part, k) => who.append(...(k ? [document.createElement('br')] : []), part));
    who.title = label;
    // A score that rests on a flag says so beside the score and beside solved.
    row.append(
      flaggedCell(evo, m.scoreFlags, 'num'),
      flaggedCell(m.evoScoreReference === null ? '—' : m.evoScoreReference.toFixed(3), m.scoreFlags, 'num'),
      m.solved ? flaggedCell('yes', m.scoreFlags) : cell('td', 'no'),
      cell('td', m.zeroRegression ? 'yes' : 'no'),
      cell('td', String(m.regressions), 'num'),
      cell('td', formatA(m.finalA), 'num'),
      cell('td', String(m.iterations) + (m.crashed ? ` (${m.crashed} crashed)` : ''), 'num wrap'),
      cell('td', m.tokensIn + m.tokensOut === 0 ? 'none recorded' : `${formatTokens(m.tokensIn)} / ${formatTokens(m.tokensOut)}`, 'num wrap'),
      cell('td', formatDuration(m.timeSec), 'num'),
    );
  });
}
