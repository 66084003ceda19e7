// The Leaderboard panel's webview: it asks the host for the record (`ready`), checks each
// message against the protocol, and builds the table and the four figures from the record.
// Standalone (an exported leaderboard.html) it reads the record embedded in the page instead,
// and nothing is clickable. Rows are reachable by Tab; Enter or a click opens the entry; below
// the figures, one entry's tasks, each opening its chart.
import './zod-config';
import './l10n-config';
import * as l10n from '@vscode/l10n';
import type { LeaderboardRecord } from '../src/shared/leaderboard-record';
import { isLeaderboardHostMessage } from '../src/shared/leaderboard-protocol';
import { el } from './dom';
import { LeaderboardFigures } from './leaderboard-figures';
import { costAxis, emptyFigures, formatScore, providerStyles, releaseSeries } from './leaderboard-model';
import { leaderboardTable } from './leaderboard-table';
import { taskStrip } from './leaderboard-tasks';
import { standalonePalette, themePalette } from './palette';
import { vsCodeApi } from './vscode-api';

/** Where an exported page embeds the record (core/report/leaderboard-html.ts writes it). */
const DATA_ID = 'sweci-leaderboard-data';

const api = vsCodeApi();
const embedded = document.getElementById(DATA_ID);
const standalone = !api;
if (standalone) document.body.classList.add('sweci-standalone');
const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
const palette = () => (standalone ? standalonePalette() : themePalette());
let record: LeaderboardRecord | undefined;

const figureBox = (id: string, title: string, note: string) => {
  const canvas = el('canvas', { id, role: 'img', 'aria-label': title });
  const box = el('div', { class: 'figure-box' });
  box.append(canvas);
  const noteLine = el('p', { class: 'note' }, note);
  // Instead of the figure, when it would have nothing to draw: one line saying what would fill it.
  const missing = el('p', { class: 'figure-empty', id: `${id}-empty` });
  missing.hidden = true;
  const section = el('section', { class: 'figure' });
  section.append(el('h2', {}, title), noteLine, box, missing);
  /** Shows the figure, or `why` in its place. */
  const show = (why: string | undefined) => {
    box.hidden = why !== undefined;
    noteLine.hidden = why !== undefined;
    missing.hidden = why === undefined;
    missing.textContent = why ?? '';
    section.classList.toggle('empty', why !== undefined);
  };
  return { section, canvas, show };
};

const heading = el('header');
const table = el('div', { class: 'table-wrap' });
const release = figureBox('fig-release', 'EvoScore by release date', 'One line per provider; whiskers: 95% bootstrap interval.');
const bump = figureBox('fig-bump', 'Rank as γ moves', 'Hover a point for the entry and its EvoScore at that γ.');
const zero = figureBox('fig-zero', 'Zero-regression rate', 'Tasks with no iteration that broke a passing test; whiskers: 95% interval.');
const cost = figureBox('fig-cost', 'Cost frontier', 'Entries no other entry beats on both EvoScore and cost per task are joined.');
const grid = el('div', { class: 'figures' });
grid.append(release.section, bump.section, zero.section, cost.section);
const notes = el('ul', { class: 'notes' });
const tasks = taskStrip(standalone ? {} : { onTaskClick: (label, task) => api?.postMessage({ type: 'task-clicked', label, task }) });
app.append(heading, table, notes, grid, tasks.element);

/** An entry clicked: its summary opens, and the tasks below show its own. */
const openEntry = (label: string) => {
  if (record) tasks.render(record, label);
  api?.postMessage({ type: 'entry-clicked', label });
};
const figures = new LeaderboardFigures(
  { release: release.canvas, bump: bump.canvas, zero: zero.canvas, cost: cost.canvas },
  { ...(standalone ? {} : { onEntryClick: openEntry }), onHover: (label) => highlight(label) },
);

function highlight(label: string | undefined): void {
  figures.highlight(label);
  for (const row of table.querySelectorAll<HTMLElement>('tr[data-label]')) row.classList.toggle('highlighted', row.dataset.label === label);
}

function render(next: LeaderboardRecord): void {
  record = next;
  const p = palette();
  const styles = providerStyles(next, p);
  const top = next.entries[0];
  const title = el('div', { class: 'title' });
  title.append(el('h1', {}, l10n.t('Leaderboard')));
  if (!standalone) {
    const exportButton = el(
      'button',
      { type: 'button', title: l10n.t('Write this leaderboard as an offline page (leaderboard.html) and its JSON') },
      l10n.t('Export HTML…'),
    );
    exportButton.addEventListener('click', () => api?.postMessage({ type: 'export-requested' }));
    title.append(exportButton);
  }
  heading.replaceChildren(
    title,
    el(
      'p',
      { class: 'note' },
      [
        l10n.t('{0} entries', next.entries.length),
        next.tasksPolicy === 'common'
          ? l10n.t('{0} tasks every entry scored', next.tasks.length)
          : l10n.t('{0} tasks (union: each entry ranked on its own)', next.tasks.length),
        l10n.t('N = {0}', next.maxEpoch),
        next.bootstrap.repositories === 1
          ? l10n.t('{0} bootstrap resamples over 1 repository (seed {1})', next.bootstrap.resamples, next.bootstrap.seed)
          : l10n.t('{0} bootstrap resamples over {1} repositories (seed {2})', next.bootstrap.resamples, next.bootstrap.repositories, next.bootstrap.seed),
        ...(top ? [l10n.t('best at γ=1: {0} ({1})', top.label, formatScore(top.evoScore['1'] ?? 0))] : []),
      ].join(' · '),
    ),
  );
  table.replaceChildren(leaderboardTable(next, styles, { clickable: !standalone }));
  const undated = releaseSeries(next).undated;
  const costless = next.entries.filter((e) => costAxis(next).value(e) === null).map((e) => e.label);
  const empty = emptyFigures(next);
  release.show(empty.release);
  cost.show(empty.cost);
  // An entry left out of a figure is named; a figure not drawn at all says why in its own place.
  notes.replaceChildren(
    ...next.notes.map((n) => el('li', {}, n)),
    ...(undated.length && !empty.release ? [el('li', {}, l10n.t('Not in “EvoScore by release date” (no release date): {0}.', undated.join(', ')))] : []),
    ...(costless.length && !empty.cost ? [el('li', {}, l10n.t('Not in “Cost frontier” (no model calls priced or counted): {0}.', costless.join(', ')))] : []),
  );
  notes.hidden = notes.childElementCount === 0;
  figures.render(next, p, styles);
  tasks.render(next);
}

// Rows: hover or focus highlights the entry in the figures; click or Enter opens it.
const rowOf = (t: EventTarget | null) => (t instanceof Element ? t.closest<HTMLElement>('tr[data-label]') : null);
table.addEventListener('mouseover', (e) => highlight(rowOf(e.target)?.dataset.label));
table.addEventListener('mouseleave', () => highlight(undefined));
table.addEventListener('focusin', (e) => highlight(rowOf(e.target)?.dataset.label));
table.addEventListener('focusout', () => highlight(undefined));
if (!standalone) {
  table.addEventListener('click', (e) => {
    const label = rowOf(e.target)?.dataset.label;
    if (label) openEntry(label);
  });
  table.addEventListener('keydown', (e) => {
    const row = rowOf(e.target);
    if (!row?.dataset.label) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openEntry(row.dataset.label);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      (e.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling)?.closest<HTMLElement>('tr')?.focus();
    }
  });
  // A theme change: the figures take the new colours (the table's come from CSS).
  new MutationObserver(() => record && render(record)).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  window.addEventListener('message', (e: MessageEvent) => {
    if (isLeaderboardHostMessage(e.data)) {
      render(e.data.record);
    } else console.warn('SWE-CI leaderboard: ignored a malformed message');
  });
  api?.postMessage({ type: 'ready' });
} else if (embedded) {
  const message = { type: 'init', record: JSON.parse(embedded.textContent ?? 'null') as unknown };
  if (isLeaderboardHostMessage(message)) render(message.record);
  else app.replaceChildren(el('p', { class: 'empty' }, l10n.t('This page’s leaderboard record is malformed.')));
}
