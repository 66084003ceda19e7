// A file change drawn as a diff: removed and added lines on the editor's diff colours, unchanged
// stretches folded to a line that says how many. One <pre>, one span per line (a long file stays
// cheap to draw).
import * as l10n from '@vscode/l10n';
import type { FileChange } from '../src/shared/transcript-edits';
import { el } from './dom';
import { diffHunks, diffStat, lineDiff } from './line-diff';

/** Lines drawn before "Show all": a whole new file can be thousands. */
const FIRST_LINES = 200;

export function diffView(change: FileChange): HTMLElement {
  const lines = lineDiff(change.before, change.after);
  const { added, removed } = diffStat(lines);
  const box = el('div', { class: 'diff' });
  const stat = el('div', { class: 'diff-stat' });
  stat.append(el('span', { class: 'added' }, `+${added}`), ' ', el('span', { class: 'removed' }, `−${removed}`));
  if (!change.whole) stat.append(el('span', { class: 'muted' }, change.kind === 'patch' ? l10n.t(' · the patch’s lines') : l10n.t(' · the edited parts only')));
  else if (change.against === 'read') stat.append(el('span', { class: 'muted' }, l10n.t(' · against the file as the agent read it')));
  else if (change.against === 'write' && change.kind === 'write') stat.append(el('span', { class: 'muted' }, l10n.t(' · against this try’s previous write')));
  // Written without reading it first: new to this try (the transcript cannot say whether it was on disk).
  else if (change.kind === 'write') stat.append(el('span', { class: 'muted' }, l10n.t(' · new file')));
  const pre = el('pre', { class: 'diff-lines' });
  const hunks = diffHunks(lines);
  let drawn = 0;
  const draw = (limit: number) => {
    pre.replaceChildren();
    drawn = 0;
    for (const h of hunks) {
      if (drawn >= limit) break;
      if (h.kind === 'folded') {
        pre.append(el('span', { class: 'l fold' }, `${h.count === 1 ? l10n.t('⋯ 1 unchanged line') : l10n.t('⋯ {0} unchanged lines', h.count)}\n`));
        drawn++;
        continue;
      }
      for (const l of h.lines) {
        if (drawn >= limit) break;
        pre.append(el('span', { class: `l ${l.kind}` }, `${l.kind === 'add' ? '+' : l.kind === 'del' ? '−' : ' '} ${l.text}\n`));
        drawn++;
      }
    }
  };
  const total = hunks.reduce((n, h) => n + (h.kind === 'folded' ? 1 : h.lines.length), 0);
  draw(FIRST_LINES);
  box.append(stat, pre);
  if (total > drawn) {
    const more = el('button', { type: 'button', class: 'link' }, l10n.t('Show all {0} lines', total));
    more.addEventListener('click', () => {
      draw(Infinity);
      more.remove();
    });
    box.append(more);
  }
  return box;
}
