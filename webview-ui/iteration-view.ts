// The iteration view's only script: clicks on elements with data-action become messages to the
// host (which re-renders the view). Its one piece of its own: the test report's filter, which
// hides rows the host rendered (kept in the webview's state, so it survives a step).
import './zod-config';
import { messageForAction } from '../src/shared/iteration-protocol';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare const acquireVsCodeApi: () => VsCodeApi;

const api = acquireVsCodeApi();

document.addEventListener('click', (event) => {
  const target = (event.target as Element | null)?.closest('[data-action]');
  if (!(target instanceof HTMLElement)) return;
  const msg = messageForAction(target.dataset.action, target.dataset.arg);
  if (!msg) return;
  event.preventDefault();
  api.postMessage(msg);
});

// --- the test report's filter -------------------------------------------------------------
interface FilterState {
  text?: string;
  outcome?: string;
}
const filter = document.getElementById('report-filter');
const outcome = document.getElementById('report-outcome');
const count = document.getElementById('report-count');
if (filter instanceof HTMLInputElement && outcome instanceof HTMLSelectElement) {
  const rows = Array.from(document.querySelectorAll<HTMLTableRowElement>('table.report tbody tr'));
  // Matched against the test id and message, lower-cased once.
  const texts = rows.map((r) => (r.textContent ?? '').toLowerCase());
  const saved = (api.getState() ?? {}) as FilterState;
  if (typeof saved.text === 'string') filter.value = saved.text;
  if (typeof saved.outcome === 'string' && Array.from(outcome.options).some((o) => o.value === saved.outcome)) outcome.value = saved.outcome;
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
    if (count) count.textContent = `${shown} of ${rows.length} tests`;
    api.setState({ text: filter.value, outcome: want } satisfies FilterState);
  };
  filter.addEventListener('input', apply);
  outcome.addEventListener('change', apply);
  if (filter.value || outcome.value !== 'all') apply();
}
