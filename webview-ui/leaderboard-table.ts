// The leaderboard's table: one row per entry, best first at γ=1, with its intervals (under the
// value, so the table fits a panel beside the side bar); entries that no interval tells apart
// from the one above share a group, shaded alike. Each row is
// reachable by keyboard (Tab, then Enter opens its experiment), and names its entry in
// `data-label` for the charts to highlight.
import * as l10n from '@vscode/l10n';
import type { LeaderboardRecord } from '../src/shared/leaderboard-record';
import { el } from './dom';
import { formatCost, formatCount, formatInterval, formatRate, formatScore, providerOf, type ProviderStyle } from './leaderboard-model';

const th = (text: string, title: string, cls = '') => el('th', { title, scope: 'col', ...(cls ? { class: cls } : {}) }, text);
const td = (text: string, cls = 'num', title?: string) => el('td', { class: cls, ...(title ? { title } : {}) }, text);
/**
 * A value with a second, quieter line under it (an interval, a release date): the table keeps to
 * a panel beside the side bar by stacking these instead of giving each a column.
 */
const stacked = (value: string, below: string, cls: string) => {
  const cell = el('td', { class: cls });
  cell.append(el('span', { class: 'value' }, value));
  if (below) cell.append(el('span', { class: 'below' }, below));
  return cell;
};

export function leaderboardTable(record: LeaderboardRecord, styles: Map<string, ProviderStyle>, opts: { clickable: boolean }): HTMLTableElement {
  const table = el('table', { id: 'board' });
  const others = record.gammas.filter((g) => g !== '1');
  // A column of blanks only takes width: Missing shows when some entry misses a task.
  const anyMissing = record.entries.some((e) => e.missing.length > 0);
  const head = el('tr');
  head.append(
    th('#', 'Rank at γ=1 (ties share a rank)'),
    th('Group', 'Entries in one group are not distinguishable from the one above them (the paired 95% interval of their difference holds 0)'),
    th('Entry', 'The entry (⚑: some of its tasks carry an integrity flag)'),
    th('Provider', 'Who made the model, as the entry gives it, and its release date'),
    th('EvoScore γ=1', 'Mean EvoScore over the ranked tasks at γ=1; below it, its bootstrap 95% interval (tasks of one repository resampled together)', 'num'),
    ...others.map((g) => th(`γ=${g}`, `EvoScore at γ=${g}`, 'num')),
    th('Solved', 'Tasks whose last iteration passes every target test', 'num'),
    th('Zero regression', 'Tasks with no iteration that broke a test passing before it; below it, its bootstrap 95% interval', 'num'),
    th('Tokens per task', 'Input + output tokens per task (cached in the tooltip)', 'num'),
    th('Cost per task', 'Dollars per task; — when some call has no known price', 'num'),
    ...(anyMissing ? [th('Missing', 'Ranked tasks this entry has no scored run for (hover for their ids)', 'num')] : []),
    th('Δrank', `How far the rank moves from γ=${record.gammas[0]} to γ=${record.gammas[record.gammas.length - 1]} (+: better at high γ)`, 'num'),
  );
  const body = el('tbody');
  const rankAt1 = new Map(record.ranks['1']?.map((r) => [r.label, r.rank]));
  record.entries.forEach((e, i) => {
    // Groups shaded in turn; a line above each new group.
    const start = i > 0 && record.entries[i - 1].group !== e.group;
    const row = el('tr', { 'data-label': e.label, class: `group-${e.group % 2 ? 'odd' : 'even'}${start ? ' group-start' : ''}` });
    if (opts.clickable) {
      row.tabIndex = 0;
      row.setAttribute('role', 'button');
      row.setAttribute('aria-label', l10n.t('{0}: EvoScore {1}, open its experiment', e.label, formatScore(e.evoScore['1'] ?? 0)));
    }
    const style = styles.get(providerOf(e));
    const name = el('td', { class: 'entry' });
    const mark = el('span', { class: 'mark', 'aria-hidden': 'true' });
    if (style) mark.style.backgroundColor = style.colour;
    name.append(mark, document.createTextNode(e.label));
    if (e.flaggedTasks > 0)
      name.append(
        el(
          'span',
          {
            class: 'flag',
            title:
              e.flaggedTasks === 1
                ? l10n.t('1 task flagged (counted as sweci summarize counts them)')
                : l10n.t('{0} tasks flagged (counted as sweci summarize counts them)', e.flaggedTasks),
          },
          ` ⚑${e.flaggedTasks}`,
        ),
      );
    if (e.experiments.length > 1)
      name.append(
        el(
          'span',
          {
            class: 'sub',
            title: l10n.t('spread between repeats {0}, between tasks {1}', e.spread.betweenRepeats?.toFixed(3) ?? '—', e.spread.betweenTasks.toFixed(3)),
          },
          ` ×${e.experiments.length}`,
        ),
      );
    const t = e.tokensPerTask;
    row.append(
      td(String(rankAt1.get(e.label) ?? '—')),
      td(String(e.group)),
      name,
      stacked(providerOf(e), e.released ?? '', 'provider'),
      stacked(formatScore(e.evoScore['1'] ?? 0), formatInterval(e.evoScoreCI95, formatScore), 'num main'),
      ...others.map((g) => td(e.evoScore[g] === undefined ? '—' : formatScore(e.evoScore[g]))),
      td(formatRate(e.solvedRate), 'num', `95% CI ${formatInterval(e.solvedCI95, formatRate)}`),
      stacked(formatRate(e.zeroRegressionRate), formatInterval(e.zeroRegressionCI95, formatRate), 'num'),
      t.source === 'none'
        ? td('—', 'num', 'No model calls recorded')
        : td(
            formatCount(t.input + t.output),
            'num',
            `input ${formatCount(t.input)} · output ${formatCount(t.output)} · cached ${formatCount(t.cached)} (${t.source})`,
          ),
      td(formatCost(e.costPerTask)),
      ...(anyMissing ? [td(e.missing.length ? String(e.missing.length) : '', 'num missing', e.missing.length ? e.missing.join(', ') : undefined)] : []),
      td(e.rankMove > 0 ? `+${e.rankMove}` : String(e.rankMove)),
    );
    body.append(row);
  });
  table.append(el('thead', {}, undefined), body);
  table.tHead?.append(head);
  return table;
}
