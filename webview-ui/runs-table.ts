// The table comparing runs. EvoScore is recomputed here for the chosen γ (and γ = 1 as the
// reference reports it) with the same metric functions the extension uses.
import type { ChartData } from '../src/shared/chart-data-adapter';
import { evoScore } from '../src/shared/chart-data-adapter';
import { formatA, formatDuration, formatTokens } from './format';

const HEAD = ['run', 'kind', 'EvoScore(γ)', 'EvoScore(γ=1)', 'solved', 'zero-regression', 'regressions', 'final a(c)', 'iterations', 'tokens in / out', 'time'];

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
  for (const m of data.metrics) {
    const series = data.series.find((s) => s.run === m.run);
    const as = (series?.points ?? []).filter((p) => p.iteration > 0).map((p) => p.a);
    const row = body.insertRow();
    row.dataset.run = m.run;
    const cells: Array<[string, string?]> = [
      [m.run],
      [m.kind],
      [evoScore(as, gamma, data.maxIterations).toFixed(3), 'num'],
      [evoScore(as, 1, data.maxIterations).toFixed(3), 'num'],
      [m.solved ? 'yes' : 'no'],
      [m.zeroRegression ? 'yes' : 'no'],
      [String(m.regressions), 'num'],
      [formatA(m.finalA), 'num'],
      [String(m.iterations), 'num'],
      [`${formatTokens(m.tokensIn)} / ${formatTokens(m.tokensOut)}`, 'num'],
      [formatDuration(m.timeSec), 'num'],
    ];
    for (const [text, cls] of cells) row.appendChild(cell('td', text, cls));
  }
}
