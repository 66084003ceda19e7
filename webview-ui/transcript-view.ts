// The Transcript panel: what an agent did in one try, as a conversation of model calls. At the
// top the try's figures, a search box, the call timeline, the files it wrote (each with the calls
// that wrote them), the system prompt and the tools (folded) and the prompt; then one section per
// call. A call's body is built only when it comes near the view (a try can have hundreds of
// calls), and the page follows a running try as its calls arrive. Runs inside VS Code (the
// transcript from the host) or standalone in an exported report (the transcript in the page).
import './zod-config';
import './l10n-config';
import * as l10n from '@vscode/l10n';
import type { Transcript } from '../src/shared/transcript-schema';
import { callsWriting, filesWritten } from '../src/shared/tool-actions';
import { fileChanges } from '../src/shared/transcript-edits';
import type { TranscriptHostMessage } from '../src/shared/transcript-protocol';
import { el } from './dom';
import { formatTokens } from '../src/shared/metrics/metric-format';
import { defaultMeasure, type TimelineMeasure } from './timeline-layout';
import { createTranscriptBridge, readTranscriptPayload, type TranscriptViewState } from './transcript-bridge';
import { callBody, callHeader, textBlock, type CallContext } from './transcript-call';
import { formatMs, formatUsd, runningTotals, shortPath } from './transcript-format';
import { callSearchText, matchingCalls, pairToolResults, promptParts } from './transcript-model';
import { Timeline } from './transcript-timeline';

const bridge = createTranscriptBridge();
const saved = bridge.getState();
const state: TranscriptViewState = { query: saved?.query ?? '', ...(saved?.measure ? { measure: saved.measure } : {}) };

// --- layout -------------------------------------------------------------------------------
const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
if (bridge.standalone) document.body.classList.add('sweci-standalone');
const header = el('header', { class: 'top' });
const title = el('h1', {}, l10n.t('Transcript'));
const where = el('span', { class: 'muted where' });
const liveBadge = el('span', { class: 'live', role: 'status', hidden: '' }, l10n.t('● Live: the step is running'));
const previous = el('button', { type: 'button', class: 'secondary', title: l10n.t('The run’s previous try') }, l10n.t('‹ Previous try'));
const next = el('button', { type: 'button', class: 'secondary', title: l10n.t('The run’s next try') }, l10n.t('Next try ›'));
const back = el('a', { class: 'back', hidden: '' }, l10n.t('← Report'));
header.append(back, title, where, liveBadge, el('span', { class: 'spacer' }), ...(bridge.standalone ? [] : [previous, next]));
const summary = el('p', { class: 'summary' });
const notes = el('ul', { class: 'notes' });
const toolbar = el('div', { class: 'toolbar' });
const search = el('input', { type: 'search', id: 'search', placeholder: l10n.t('Search the calls'), 'aria-label': l10n.t('Search the calls') });
const matchCount = el('span', { class: 'muted match-count', role: 'status' });
const measureSelect = el('select', { id: 'measure', 'aria-label': l10n.t('Bar width by') });
measureSelect.append(el('option', { value: 'ms' }, l10n.t('bars by time')), el('option', { value: 'tokens' }, l10n.t('bars by tokens')));
const jumpRequirement = el('button', { type: 'button', id: 'jump-requirement', hidden: '' }, l10n.t('Jump to the call that wrote requirement.xml'));
toolbar.append(search, matchCount, el('span', { class: 'spacer' }), jumpRequirement, measureSelect);
const timeline = new Timeline('ms', (i) => scrollToCall(i));
const files = el('details', { class: 'files', open: '' });
const system = el('details', { class: 'system' });
const tools = el('details', { class: 'tools' });
const prompt = el('section', { class: 'prompt' });
const callsBox = el('div', { id: 'calls' });
const problem = el('p', { class: 'problem', hidden: '' });
app.append(header, problem, summary, notes, toolbar, timeline.root, files, system, tools, prompt, callsBox);

// --- state of the transcript shown --------------------------------------------------------
let transcript: Transcript | undefined;
let sections: HTMLElement[] = [];
/** Builds a call's body (once) when it comes near the view. */
let builders: (() => void)[] = [];
let searchTexts: string[] | undefined;
let matching: Set<number> | undefined;
/** Calls folded by the user, by call number (kept across live updates). */
const folded = new Set<number>();

const observer = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const i = Number((e.target as HTMLElement).dataset.index);
      builders[i]?.();
    }
  },
  { rootMargin: '800px 0px' },
);

function render(t: Transcript, isLive: boolean): void {
  const sameTry = transcript && transcript.run === t.run && transcript.iteration === t.iteration && transcript.role === t.role && transcript.try === t.try;
  // Following a live try: a reader at the bottom stays at the bottom; anyone else keeps their place.
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  const scrollY = window.scrollY;
  if (!sameTry) folded.clear();
  transcript = t;
  searchTexts = undefined;

  const role = t.role === 'architect' ? 'Architect' : 'Programmer';
  title.textContent = l10n.t('{0} · try {1}', role, t.try);
  where.textContent = [t.iteration === 0 ? 'base' : `iteration ${t.iteration}`, t.run, t.agent].filter(Boolean).join(' · ');
  document.title = `${title.textContent} · ${where.textContent}`;
  liveBadge.hidden = !isLive;

  const u = t.totals.usage;
  summary.textContent = [
    `${t.totals.calls} call${t.totals.calls === 1 ? '' : 's'}`,
    `${formatTokens(u.input)} tokens in${u.cached ? ` (${formatTokens(u.cached)} cached)` : ''}`,
    `${formatTokens(u.output)} out`,
    t.totals.costUsd === undefined ? 'cost unknown' : formatUsd(t.totals.costUsd),
    formatMs(t.totals.ms),
    t.source === 'gateway' ? 'recorded by the model gateway' : 'from the agent’s own event stream',
  ].join(' · ');
  notes.replaceChildren(...t.notes.map((n) => el('li', {}, n)));

  const changes = fileChanges(t);
  const pairing = pairToolResults(t);
  const ctx: CallContext = { transcript: t, pairing, changes, standalone: bridge.standalone, post: (m) => bridge.post(m) };
  renderFiles(t);
  renderPreamble(t);

  if (!state.measure) measureSelect.value = defaultMeasure(t.calls);
  timeline.setMeasure(measureSelect.value as TimelineMeasure);
  timeline.setCalls(t.calls, new Set(changes.map((c) => c.call)));

  const totals = runningTotals(t.calls);
  observer.disconnect();
  sections = [];
  builders = [];
  const fragment = document.createDocumentFragment();
  t.calls.forEach((call, i) => {
    const bodyId = `call-${call.call}-body`;
    const section = el('section', { class: 'call', id: `call-${call.call}`, 'data-index': String(i) });
    const { head, toggle } = callHeader(call, totals[i], bodyId);
    const body = el('div', { class: 'call-body', id: bodyId });
    let done = false;
    const build = () => {
      if (done || body.hidden) return;
      done = true;
      body.append(...callBody(ctx, call, i === 0));
      section.classList.add('built');
      if (matching) highlightSoon();
    };
    const setFolded = (f: boolean) => {
      body.hidden = f;
      toggle.setAttribute('aria-expanded', String(!f));
      toggle.setAttribute('aria-label', f ? l10n.t('Call {0}: unfold', call.call) : l10n.t('Call {0}: fold', call.call));
      toggle.textContent = f ? '▸' : '▾';
      if (f) folded.add(call.call);
      else {
        folded.delete(call.call);
        build();
      }
    };
    toggle.addEventListener('click', () => setFolded(!body.hidden));
    if (folded.has(call.call)) setFolded(true);
    section.append(head, body);
    fragment.append(section);
    sections.push(section);
    builders.push(build);
  });
  callsBox.replaceChildren(fragment);
  for (const s of sections) observer.observe(s);
  applySearch();
  if (sameTry) window.scrollTo(0, isLive && atBottom ? document.body.scrollHeight : scrollY);
}

function renderPreamble(t: Transcript): void {
  system.hidden = !t.system;
  system.replaceChildren(el('summary', {}, l10n.t('System prompt')), textBlock(t.system ?? '', 'system-text', 400));
  tools.hidden = t.tools.length === 0;
  const list = el('ul', { class: 'tool-list' });
  for (const tool of t.tools) {
    const li = el('li');
    li.append(el('code', {}, tool.name));
    if (tool.description) li.append(' ', el('span', { class: 'muted' }, tool.description.split('\n')[0]));
    list.append(li);
  }
  tools.replaceChildren(el('summary', {}, l10n.t('Tools offered ({0})', t.tools.length)), list);
  const p = promptParts(t);
  prompt.hidden = p.prompt === undefined && p.reminders.length === 0;
  prompt.replaceChildren(el('h2', {}, l10n.t('Prompt')), textBlock(p.prompt ?? '', 'prompt-text', 6));
  if (p.reminders.length) {
    // What the CLI wrapped around the prompt: folded, so the prompt the harness gave comes first.
    const added = el('details', { class: 'reminders' });
    const lines = p.reminders.reduce((n, r) => n + r.split('\n').length, 0);
    added.append(
      el(
        'summary',
        {},
        p.reminders.length === 1
          ? l10n.t('Added by the CLI: 1 system reminder ({0} lines)', lines)
          : l10n.t('Added by the CLI: {0} system reminders ({1} lines)', p.reminders.length, lines),
      ),
      textBlock(p.reminders.join('\n\n'), 'prompt-text', 400),
    );
    prompt.append(added);
  }
}

function callLink(call: number): HTMLAnchorElement {
  const a = el('a', { href: `#call-${call}` }, l10n.t('call {0}', call));
  a.addEventListener('click', (e) => {
    e.preventDefault();
    const i = transcript?.calls.findIndex((c) => c.call === call) ?? -1;
    if (i >= 0) scrollToCall(i);
  });
  return a;
}

function renderFiles(t: Transcript): void {
  const written = filesWritten(t);
  files.hidden = written.size === 0;
  const list = el('ul', { class: 'file-list' });
  for (const [path, calls] of written) {
    const li = el('li');
    li.append(el('code', { title: path }, shortPath(path)), ' ← ');
    calls.forEach((call, i) => li.append(...(i ? [', '] : []), callLink(call)));
    list.append(li);
  }
  files.replaceChildren(el('summary', {}, l10n.t('Files written ({0})', written.size)), list);
  // The call that last wrote requirement.xml: the one the Architect is judged by.
  const last = callsWriting(written, 'requirement.xml').pop();
  jumpRequirement.hidden = last === undefined;
  jumpRequirement.onclick = () => {
    const i = transcript?.calls.findIndex((c) => c.call === last) ?? -1;
    if (i >= 0) scrollToCall(i);
  };
  if (last !== undefined) jumpRequirement.textContent = l10n.t('Jump to the call that wrote requirement.xml (call {0})', last);
}

function scrollToCall(i: number): void {
  const section = sections[i];
  if (!section) return;
  if (section.hidden) {
    // Hidden by the search: clear it so the call can be seen.
    search.value = '';
    onSearch();
  }
  builders[i]?.();
  section.scrollIntoView({ block: 'start' });
  section.querySelector<HTMLButtonElement>('.toggle')?.focus({ preventScroll: true });
  section.classList.remove('flash');
  void section.offsetWidth;
  section.classList.add('flash');
}

// --- search -------------------------------------------------------------------------------
let searchTimer: number | undefined;
function onSearch(): void {
  state.query = search.value;
  bridge.setState(state);
  applySearch();
}
search.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = window.setTimeout(onSearch, 120);
});
search.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    const first = sections.findIndex((s) => !s.hidden);
    if (first >= 0) scrollToCall(first);
  }
});

function applySearch(): void {
  const t = transcript;
  if (!t) return;
  const q = state.query.trim();
  if (!q) {
    matching = undefined;
    for (const s of sections) s.hidden = false;
    matchCount.textContent = '';
  } else {
    searchTexts ??= t.calls.map(callSearchText);
    matching = new Set(matchingCalls(searchTexts, q));
    sections.forEach((s, i) => (s.hidden = !matching!.has(i)));
    matchCount.textContent = t.calls.length === 1 ? l10n.t('{0} of 1 call', matching.size) : l10n.t('{0} of {1} calls', matching.size, t.calls.length);
  }
  timeline.mark(matching);
  highlightSoon();
}

/** Marks the query in the built bodies shown (the CSS Custom Highlight API: no change to the DOM). */
let highlightFrame = 0;
function highlightSoon(): void {
  cancelAnimationFrame(highlightFrame);
  highlightFrame = requestAnimationFrame(highlight);
}
function highlight(): void {
  const registry = (CSS as unknown as { highlights?: Map<string, unknown> }).highlights;
  const HighlightCtor = (window as unknown as { Highlight?: new (...r: Range[]) => unknown }).Highlight;
  if (!registry || !HighlightCtor) return;
  const q = state.query.trim().toLowerCase();
  if (!q) return void registry.delete('sweci-search');
  const ranges: Range[] = [];
  for (const s of sections) {
    if (s.hidden || !s.classList.contains('built') || ranges.length > 2000) continue;
    const walker = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').toLowerCase();
      for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + q.length)) {
        const r = new Range();
        r.setStart(node, at);
        r.setEnd(node, at + q.length);
        ranges.push(r);
      }
    }
  }
  registry.set('sweci-search', new HighlightCtor(...ranges));
}

measureSelect.addEventListener('change', () => {
  state.measure = measureSelect.value as TimelineMeasure;
  bridge.setState(state);
  timeline.setMeasure(state.measure);
});
previous.addEventListener('click', () => bridge.post({ type: 'step', direction: -1 }));
next.addEventListener('click', () => bridge.post({ type: 'step', direction: 1 }));

function onHostMessage(msg: TranscriptHostMessage): void {
  previous.disabled = !msg.steps?.previous;
  next.disabled = !msg.steps?.next;
  render(msg.transcript, msg.live);
}

search.value = state.query;
if (state.measure) measureSelect.value = state.measure;
if (bridge.standalone) {
  const { payload, problem: why } = readTranscriptPayload();
  if (payload) {
    if (payload.back) {
      back.href = payload.back;
      back.hidden = false;
    }
    render(payload.transcript, false);
  } else {
    problem.textContent = why ?? '';
    problem.hidden = false;
  }
} else {
  bridge.onMessage(onHostMessage);
  bridge.post({ type: 'ready' });
}
