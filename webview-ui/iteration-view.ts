// The iteration view's webview: it asks the host for the page to show (`ready`), builds its DOM
// from each page the host sends (iteration-page.ts), checked against the protocol first, and
// turns clicks on elements with data-action into messages. Its one piece of its own: the test
// report's filter, kept in the webview's state so it survives a step and a reload.
import './zod-config';
import './l10n-config';
import * as l10n from '@vscode/l10n';
import * as z from 'zod/mini';
import { isIterationHostMessage, messageForAction, type IterationPage } from '../src/shared/iteration-protocol';
import { el } from './dom';
import { comparePage, iterationPage, reportPage, type ReportTable } from './iteration-page';
import { savedState, vsCodeApi } from './vscode-api';

const filterStateSchema = z.object({ text: z.optional(z.string()), outcome: z.optional(z.string()) });
type FilterState = z.infer<typeof filterStateSchema>;

const api = vsCodeApi();
const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
const filterState: FilterState = (api && savedState(api, filterStateSchema)) ?? {};
/** What the page last shown was (its kind and heading): a new one starts at the top. */
let shownKey = '';

document.addEventListener('click', (event) => {
  const target = (event.target as Element | null)?.closest('[data-action]');
  if (!(target instanceof HTMLElement)) return;
  const msg = messageForAction(target.dataset.action, target.dataset.arg);
  if (!msg) return;
  event.preventDefault();
  api?.postMessage(msg);
});

/** Hides the rows the filter leaves out, and says how many are shown. */
function wireFilter({ filter, outcome, count, rows }: ReportTable): void {
  // Matched against the test id and message, lower-cased once.
  const texts = rows.map((r) => (r.textContent ?? '').toLowerCase());
  if (filterState.text !== undefined) filter.value = filterState.text;
  if (filterState.outcome !== undefined && Array.from(outcome.options).some((o) => o.value === filterState.outcome)) outcome.value = filterState.outcome;
  const apply = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const want = outcome.value;
    let shown = 0;
    rows.forEach((row, i) => {
      const o = row.dataset.outcome;
      const match = (want === 'all' || (want === 'not-passed' ? o !== 'passed' : o === want)) && words.every((w) => texts[i].includes(w));
      row.hidden = !match;
      if (match) shown++;
    });
    count.textContent = l10n.t('{0} of {1} tests', shown, rows.length);
    filterState.text = filter.value;
    filterState.outcome = want;
    api?.setState(filterState);
  };
  filter.addEventListener('input', apply);
  outcome.addEventListener('change', apply);
  if (filter.value || outcome.value !== 'all') apply();
}

function render(page: IterationPage): void {
  let table: ReportTable | undefined;
  let nodes: HTMLElement[];
  if (page.kind === 'iteration') nodes = iterationPage(page);
  else if (page.kind === 'compare') nodes = comparePage(page);
  else ({ nodes, table } = reportPage(page));
  app.replaceChildren(...nodes);
  if (table) wireFilter(table);
  const key = `${page.kind} ${page.header.heading.map((h) => h.text).join(' ')}`;
  if (key !== shownKey) window.scrollTo(0, 0);
  shownKey = key;
}

window.addEventListener('message', (e: MessageEvent) => {
  if (isIterationHostMessage(e.data)) render(e.data.page);
  else console.warn('SWE-CI iteration view: ignored a malformed message');
});
api?.postMessage({ type: 'ready' });
