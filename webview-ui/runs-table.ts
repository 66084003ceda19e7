// The table comparing runs. EvoScore is recomputed here for the chosen γ (and γ = 1 as the
// reference reports it) with the same metric functions the extension uses.
import type { ChartData } from '../src/core/scoring/chart-types';
import { evoScore } from '../src/core/metrics/evo-score';
import { formatA, formatDuration, formatTokens } from './format';
import { RUN_FLAG_LABELS, flaggedScore } from '../src/core/metrics/run-flags';

const HEAD = [
  'run',
  'who',
  'EvoScore(γ)',
  'EvoScore(γ=1) ref.',
  'solved',
  'zero-regression',
  'regressions',
  'final a(c)',
  'iterations',
  'tokens in / out',
  'time',
];

function cell(tag: 'td' | 'th', text: string, cls?: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

export function renderRunsTable(table: HTMLTableElement, data: ChartData, gamma: number): void {
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  HEAD.forEach((h) => head.appendChild(cell('th', h === 'EvoScore(γ)' ? `EvoScore(γ=${gamma.toFixed(2)})` : h)));
  const body = table.createTBody();
  for (const r of data.runs) {
    const m = r.metrics;
    const row = body.insertRow();
    row.dataset.run = r.run;
    // γ moves in the webview: EvoScore(γ) is recomputed from the run's padded a values.
    const evo = r.evoA.length ? evoScore(r.evoA, gamma).toFixed(3) : '—';
    // A flagged run's scores are in doubt: said beside its name, each flag explained on hover.
    const flagged = r.flags.length ? ` ⚑ ${r.flags.join(', ')}` : '';
    const cells: Array<[string, string?]> = [
      [r.run + (r.pending ? ' (iteration pending)' : '') + flagged, r.flags.length ? 'flagged' : undefined],
      [r.kind === 'human-history' ? 'upstream developers' : r.label, 'who'],
      // A score that rests on a flag names it beside the score and beside solved.
      [flaggedScore(evo, m.scoreFlags), 'num'],
      [flaggedScore(m.evoScoreReference === null ? '—' : m.evoScoreReference.toFixed(3), m.scoreFlags), 'num'],
      [m.solved ? flaggedScore('yes', m.scoreFlags) : 'no'],
      [m.zeroRegression ? 'yes' : 'no'],
      [String(m.regressions), 'num'],
      [formatA(m.finalA), 'num'],
      [String(m.iterations) + (m.crashed ? ` (${m.crashed} crashed)` : ''), 'num'],
      [m.tokensIn + m.tokensOut === 0 ? 'none recorded' : `${formatTokens(m.tokensIn)} / ${formatTokens(m.tokensOut)}`, 'num'],
      [formatDuration(m.timeSec), 'num'],
    ];
    for (const [text, cls] of cells) {
      const td = row.appendChild(cell('td', text, cls));
      if (cls === 'who') td.title = text;
      if (cls === 'flagged') td.title = r.flags.map((f) => RUN_FLAG_LABELS[f]).join('\n');
    }
  }
}
