// The iteration view's DOM, built from the page the host sent (shared/iteration-protocol.ts):
// an iteration, two compared, or an iteration's test report. Recorded text (test ids, messages,
// requirement.xml, agents' notes) goes in as text, never as HTML. Buttons and links carry
// data-action / data-arg; iteration-view.ts turns a click on one into a message.
import * as l10n from '@vscode/l10n';
import type { IterationPage, PageControl } from '../src/shared/iteration-protocol';
import { el } from './dom';
import { nodeIdParts } from './node-id-parts';

type PageOf<K extends IterationPage['kind']> = Extract<IterationPage, { kind: K }>;
type TestList = PageOf<'iteration'>['tests'][number];

function button(c: PageControl): HTMLButtonElement {
  const b = el('button', { 'data-action': c.action }, c.label);
  if (c.arg !== undefined) b.dataset.arg = String(c.arg);
  if (c.title) b.title = c.title;
  b.disabled = c.disabled === true;
  return b;
}

function link(action: PageControl['action'], text: string, arg?: string | number): HTMLAnchorElement {
  const a = el('a', { href: '#', 'data-action': action }, text);
  if (arg !== undefined) a.dataset.arg = String(arg);
  return a;
}

function actions(controls: PageControl[]): HTMLDivElement {
  const div = el('div', { class: 'actions' });
  div.append(...controls.map(button));
  return div;
}

/** A heading with its muted parts, a space between the parts. */
function heading(tag: 'h1' | 'h2', parts: { text: string; muted?: boolean }[]): HTMLElement {
  const h = el(tag);
  parts.forEach((p, i) => h.append(i ? ' ' : '', p.muted ? el('span', { class: 'muted' }, p.text) : p.text));
  return h;
}

function header(h: IterationPage['header']): HTMLElement {
  const nav = el('nav');
  nav.append(button(h.previous), heading('h1', h.heading), button(h.next));
  const out = el('header');
  out.append(nav);
  if (h.actions.length) out.append(actions(h.actions));
  return out;
}

const muted = (text: string) => el('p', { class: 'muted' }, text);

function testList(list: TestList): HTMLElement {
  const section = el('section', { class: `tests ${list.kind}` });
  section.append(el('h2', {}, list.title));
  if (list.ids.length === 0) {
    section.append(muted('None.'));
    return section;
  }
  const ul = el('ul');
  // A long id breaks after a '/' or '::', not inside a name.
  for (const id of list.ids) ul.appendChild(el('li')).append(breakable(link('open-test', '', id), id));
  if (list.more) ul.append(el('li', { class: 'muted' }, l10n.t('… {0} more', list.more)));
  section.append(ul);
  return section;
}

function columns(lists: TestList[]): HTMLDivElement {
  const div = el('div', { class: 'columns' });
  div.append(...lists.map(testList));
  return div;
}

function table(heads: string[], rows: HTMLTableRowElement[], cls: string): HTMLTableElement {
  const t = el('table', { class: cls });
  const head = t.appendChild(el('thead')).appendChild(el('tr'));
  for (const h of heads) head.append(el('th', {}, h));
  t.appendChild(el('tbody')).append(...rows);
  return t;
}

function row(cells: (string | HTMLElement)[]): HTMLTableRowElement {
  const tr = el('tr');
  for (const c of cells) tr.append(typeof c === 'string' ? el('td', {}, c) : c);
  return tr;
}

function stepsSection(steps: PageOf<'iteration'>['steps']): HTMLElement {
  const rows = steps.flatMap((s) => {
    const transcript = el('td', { class: 'transcript' });
    s.transcripts.forEach((t, i) => {
      const a = link('open-transcript', t.label, `${s.role}:${t.try}`);
      a.title = t.title;
      transcript.append(i ? ' · ' : '', a);
    });
    // A note under the row, across the last six columns.
    const notes = s.notes.map((n) => row([el('td'), el('td', { colspan: '6', class: 'muted' }, n)]));
    return [row([...s.cells, transcript]), ...notes];
  });
  const section = el('section');
  section.append(
    el('h2', {}, l10n.t('Roles')),
    table([l10n.t('Role'), l10n.t('Who'), l10n.t('Time'), l10n.t('Tokens'), l10n.t('Cost'), l10n.t('Tries'), l10n.t('Transcript')], rows, 'steps'),
  );
  return section;
}

function requirementSection(r: NonNullable<PageOf<'iteration'>['requirement']>): HTMLElement {
  const section = el('section');
  if ('missing' in r) {
    section.append(el('h2', {}, 'requirement.xml'), muted(r.missing));
    return section;
  }
  section.append(heading('h2', [{ text: 'requirement.xml' }, { text: r.state, muted: true }]), actions(r.actions), el('pre', { class: 'requirement' }, r.text));
  return section;
}

function filesSection(files: PageOf<'iteration'>['files']): HTMLElement {
  const ul = el('ul', { class: 'files' });
  files.forEach((f, i) => {
    const li = ul.appendChild(el('li'));
    // The test report opens as a table here; its raw JSON is beside it.
    if (f.report) {
      const raw = link('open-file', '(raw JSON)', i);
      raw.className = 'muted';
      li.append(link('open-test-report', f.label), ' ', raw);
    } else li.append(link('open-file', f.label, i));
  });
  const section = el('section');
  section.append(el('h2', {}, l10n.t('Files')), ul);
  return section;
}

export function iterationPage(p: PageOf<'iteration'>): HTMLElement[] {
  const out: HTMLElement[] = [header(p.header)];
  if ('error' in p.score) out.push(el('p', { class: 'error' }, p.score.error));
  else {
    const dl = el('dl', { class: 'score' });
    for (const c of p.score.cells) dl.appendChild(el('div')).append(el('dt', {}, c.term), el('dd', {}, c.value));
    out.push(dl);
  }
  out.push(...p.warnings.map((w) => el('p', { class: 'warning' }, w)));
  if (p.note) out.push(el('p', { class: 'note' }, p.note));
  if (p.actions.length) out.push(actions(p.actions));
  out.push(columns(p.tests));
  if (p.requirement) out.push(requirementSection(p.requirement));
  if (p.steps.length) out.push(stepsSection(p.steps));
  if (p.files.length) out.push(filesSection(p.files));
  const commit = muted('commit ');
  commit.append(el('code', {}, p.commit));
  out.push(commit);
  return out;
}

export function comparePage(p: PageOf<'compare'>): HTMLElement[] {
  const rows = p.rows.map((r) => {
    const tr = row(r.cells);
    tr.prepend(el('th', {}, r.label));
    return tr;
  });
  return [header(p.header), table(p.heads, rows, 'steps'), actions(p.actions), 'lists' in p.tests ? columns(p.tests.lists) : muted(p.tests.note)];
}

function breakable(a: HTMLElement, nodeid: string): HTMLElement {
  nodeIdParts(nodeid).forEach((part, i) => a.append(...(i ? [el('wbr'), part] : [part])));
  return a;
}

/** The test report's parts that its filter works on. */
export interface ReportTable {
  filter: HTMLInputElement;
  outcome: HTMLSelectElement;
  count: HTMLElement;
  rows: HTMLTableRowElement[];
}

export function reportPage(p: PageOf<'report'>): { nodes: HTMLElement[]; table?: ReportTable } {
  const top = header(p.header);
  const t = p.table;
  if ('missing' in t) return { nodes: [top, muted(t.missing)] };
  const summary = el('p', { class: 'report-summary' });
  t.counts.forEach((c, i) => summary.append(i ? ' · ' : '', el('span', { class: `outcome ${c.outcome}` }, `${c.n} ${c.outcome}`)));
  if (t.total !== undefined) summary.append(' ', el('span', { class: 'muted' }, l10n.t('· {0} in tests', t.total)));
  const filter = el('input', {
    id: 'report-filter',
    type: 'search',
    placeholder: l10n.t('Filter by test or message'),
    'aria-label': l10n.t('Filter the tests by name or message'),
  });
  const outcome = el('select', { id: 'report-outcome', 'aria-label': l10n.t('Show the tests with this outcome') });
  outcome.append(el('option', { value: 'all' }, l10n.t('all outcomes')), el('option', { value: 'not-passed' }, l10n.t('not passed')));
  for (const c of t.counts) outcome.append(el('option', { value: c.outcome }, c.outcome));
  const n = t.rows.length;
  const count = el(
    'span',
    { id: 'report-count', class: 'muted', role: 'status' },
    t.failing ? l10n.t('{0} of {1} tests, {2} failing', n, n, t.failing) : l10n.t('{0} of {1} tests', n, n),
  );
  const bar = el('div', { class: 'report-filter' });
  bar.append(filter, outcome, count);
  const rows = t.rows.map((r) => {
    const tr = el('tr', { 'data-outcome': r.outcome });
    tr.appendChild(el('td')).append(el('span', { class: `outcome ${r.outcome}` }, r.outcome));
    tr.appendChild(el('td', { class: 'nodeid' })).append(breakable(link('open-test', '', r.nodeid), r.nodeid));
    tr.append(el('td', { class: 'num' }, r.duration));
    const message = tr.appendChild(el('td'));
    if (r.message) message.append(el('pre', { class: 'message' }, r.message));
    return tr;
  });
  const nodes = [top, summary, bar, table(['Outcome', 'Test', 'Duration', 'Message'], rows, 'report')];
  if (t.more) nodes.push(muted(`… ${t.more} more tests (all passed): see the raw report.`));
  return { nodes, table: { filter, outcome, count, rows } };
}
