// The leaderboard's tasks: one entry's EvoScore(γ=1) on each task it is ranked on, as a grid of
// cells shaded by score, the entry picked from a list (the table's click picks it too). In the
// panel each cell is a button that opens the task's chart for that entry's run; in an exported
// page the cells only show the scores.
import * as l10n from '@vscode/l10n';
import type { LeaderboardRecord } from '../src/shared/leaderboard-record';
import { el } from './dom';
import { formatScore } from './leaderboard-model';

export interface TaskStrip {
  readonly element: HTMLElement;
  /** Draws `record`'s tasks for `label` (kept across records while the entry is there; else the top entry). */
  render(record: LeaderboardRecord, label?: string): void;
  /** The entry whose tasks are shown. */
  readonly label: string | undefined;
}

export function taskStrip(opts: { onTaskClick?: (label: string, task: string) => void }): TaskStrip {
  const select = el('select', { id: 'task-entry', 'aria-label': l10n.t('Entry whose tasks are shown') });
  const grid = el('div', { class: 'task-grid', role: 'list' });
  const summary = el('p', { class: 'note' });
  const picker = el('label', { class: 'task-picker' }, l10n.t('Tasks of '));
  picker.append(select);
  const element = el('section', { class: 'tasks' });
  element.append(el('h2', {}, l10n.t('Tasks')), picker, summary, grid);
  let shown: LeaderboardRecord | undefined;
  let label: string | undefined;

  const draw = () => {
    const entry = shown?.entries.find((e) => e.label === label);
    if (!shown || !entry) {
      grid.replaceChildren();
      return;
    }
    const ids = Object.keys(entry.taskScores).sort();
    summary.textContent =
      (ids.length === 1
        ? l10n.t('EvoScore (γ=1) of {0} on each of its 1 ranked task', entry.label)
        : l10n.t('EvoScore (γ=1) of {0} on each of its {1} ranked tasks', entry.label, ids.length)) +
      (opts.onTaskClick ? l10n.t('; a task opens its chart for this run.') : '.');
    grid.replaceChildren(
      ...ids.map((task) => {
        const score = entry.taskScores[task];
        const text = `${task} ${formatScore(score)}`;
        const cell = opts.onTaskClick
          ? el('button', { type: 'button', class: 'task', role: 'listitem', 'data-task': task, title: l10n.t('{0}: open its chart', text) })
          : el('span', { class: 'task', role: 'listitem', 'data-task': task, title: text });
        // The shade says the score at a glance: from none (0) to 45% of the theme's chart green (1), so the text stays readable.
        cell.style.setProperty('--score', `${Math.round(Math.max(0, Math.min(1, score)) * 45)}%`);
        cell.append(el('span', { class: 'task-id' }, task), el('span', { class: 'task-score' }, formatScore(score)));
        return cell;
      }),
    );
  };

  select.addEventListener('change', () => {
    label = select.value;
    draw();
  });
  grid.addEventListener('click', (e) => {
    const task = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-task]')?.dataset.task : undefined;
    if (task && label) opts.onTaskClick?.(label, task);
  });

  return {
    element,
    get label() {
      return label;
    },
    render(record, next) {
      shown = record;
      const labels = record.entries.map((e) => e.label);
      label = next !== undefined && labels.includes(next) ? next : label !== undefined && labels.includes(label) ? label : labels[0];
      select.replaceChildren(...labels.map((l) => el('option', { value: l }, l)));
      if (label !== undefined) select.value = label;
      element.hidden = labels.length === 0;
      draw();
    },
  };
}
