// The iteration view's content, rendered by the host from IterationDetails (no VS Code API, so
// unit tests render it too). Everything recorded by agents, pytest or upstream commits goes
// through html`…`, which escapes it; clicks go through data-action attributes
// (shared/iteration-protocol.ts). The page around it is the webviews' (webview/webview-page.ts).
import { comparisonStep, type Comparison, type ComparedSide } from '../../core/inspect/comparison';
import type { IterationDetails } from '../../core/inspect/iteration-details';
import { revisionLabel } from '../../core/inspect/revisions';
import { html, type SafeHtml } from '../../core/util/html';
import type { WebviewContent } from '../webview/webview-page';
import { formatChange, formatTokens } from '../views/iteration-text';

const LIST_LIMIT = 200;

export function button(action: string, label: string, opts: { arg?: string | number; disabled?: boolean; title?: string } = {}): SafeHtml {
  const arg = opts.arg === undefined ? '' : html` data-arg="${opts.arg}"`;
  const title = opts.title ? html` title="${opts.title}"` : '';
  return html`<button data-action="${action}"${arg}${title}${opts.disabled ? html` disabled` : ''}>${label}</button>`;
}

function testList(title: string, ids: string[], cls: string): SafeHtml {
  if (ids.length === 0) return html`<section class="tests ${cls}"><h2>${title} (0)</h2><p class="muted">None.</p></section>`;
  const items = ids.slice(0, LIST_LIMIT).map((id) => html`<li><a href="#" data-action="open-test" data-arg="${id}">${id}</a></li>`);
  const more = ids.length > LIST_LIMIT ? html`<li class="muted">… ${ids.length - LIST_LIMIT} more</li>` : '';
  return html`<section class="tests ${cls}"><h2>${title} (${ids.length})</h2><ul>${items}${more}</ul></section>`;
}

/** A table row under a step: a note across the last six columns. */
const stepNote = (text: string): SafeHtml => html`<tr><td></td><td colspan="6" class="muted">${text}</td></tr>`;

/** What the gateway counted of a step's model calls, and what the agent itself said. */
function modelNote(step: IterationDetails['steps'][number]['step']): string {
  const calls = `${step.model_calls ?? 0} model call${step.model_calls === 1 ? '' : 's'} through the gateway`;
  const cached = step.cached_tokens ? `, ${formatTokens(step.cached_tokens)} cached` : '';
  const cost = step.cost_usd === undefined ? ', cost unknown (no price: sweci.agents.prices)' : '';
  const own = step.agent_reported;
  const said =
    own && (own.input_tokens !== step.input_tokens || own.output_tokens !== step.output_tokens)
      ? `; the agent reported ${formatTokens(own.input_tokens) ?? '–'} in / ${formatTokens(own.output_tokens) ?? '–'} out`
      : '';
  const network = step.network === 'open' ? '; network open (sweci.agents.network)' : step.network === 'model-only' ? '; no network but its model' : '';
  return `Model: ${calls} (tokens as the wire reported them${cached})${cost}${said}${network}`;
}

function stepsSection(d: IterationDetails): SafeHtml | '' {
  if (d.steps.length === 0) return '';
  const rows = d.steps.map(({ role, step }) => {
    const tries = d.transcripts.filter((t) => t.role === role);
    // One link per try with a transcript: "Transcript", or "try 1 · try 2".
    const transcript = html`<td class="transcript">${tries.map(
      (t, i) =>
        html`${i ? ' · ' : ''}<a href="#" data-action="open-transcript" data-arg="${`${role}:${t.attempt}`}" title="${`What the agent did in try ${t.attempt}: its model calls, tool calls and the files it wrote`}">${tries.length === 1 ? 'Transcript' : `try ${t.attempt}`}</a>`,
    )}</td>`;
    const cells = [
      role === 'architect' ? 'Architect' : 'Programmer',
      step.kind === 'human' ? `human${step.agent && step.agent !== 'human' ? ` (${step.agent})` : ''}` : step.agent,
      step.execution_time === undefined ? '–' : `${step.execution_time.toFixed(1)} s`,
      `${formatTokens(step.input_tokens) ?? '–'} in / ${formatTokens(step.output_tokens) ?? '–'} out`,
      step.cost_usd === undefined ? '–' : `$${step.cost_usd.toFixed(2)}`,
      String(step.tries),
    ];
    const discarded = step.discarded_changes?.length
      ? stepNote(`Code changes thrown away (the Architect writes requirement.xml only): ${step.discarded_changes.join(', ')}`)
      : '';
    // Tries that failed before the one that counted, and what the agent was allowed to do.
    const failed = step.failed_tries?.length ? stepNote(`Failed tries: ${step.failed_tries.join('; ')}`) : '';
    const allowed = step.permissions ? stepNote(`Allowed: ${step.permissions}`) : '';
    const model = step.usage_source === 'wire' ? stepNote(modelNote(step)) : '';
    const removed = step.removed_from_app?.length
      ? stepNote(`Removed from app/ (only code/, requirement.xml, non-passed/ and memory/ carry over to the next step): ${step.removed_from_app.join(', ')}`)
      : '';
    return html`<tr>${cells.map((c) => html`<td>${c}</td>`)}${transcript}</tr>${removed}${discarded}${failed}${allowed}${model}`;
  });
  const head = html`<th>Role</th><th>Who</th><th>Time</th><th>Tokens</th><th>Cost</th><th>Tries</th><th>Transcript</th>`;
  return html`<section><h2>Roles</h2><table class="steps"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></section>`;
}

function requirementSection(d: IterationDetails): SafeHtml | '' {
  const r = d.requirement;
  if (!r)
    return d.iteration === 0 || d.runKind === 'human-history'
      ? ''
      : html`<section><h2>requirement.xml</h2><p class="muted">This iteration archived no requirement.xml.</p></section>`;
  const diff = r.previousFile
    ? button('open-requirement-diff', `Diff with #${r.previousIteration}`, { title: 'Open requirement.xml side by side with the previous iteration’s' })
    : '';
  const state = r.previousFile ? (r.changed ? `changed since #${r.previousIteration}` : `same as #${r.previousIteration}`) : 'the run’s first';
  return html`<section><h2>requirement.xml <span class="muted">${state}</span></h2><div class="actions">${button('open-requirement', 'Open')}${diff}</div><pre class="requirement">${r.text}</pre></section>`;
}

function flags(d: IterationDetails): string[] {
  const r = d.record;
  const out: string[] = [];
  if (r.tampered.length) out.push(`Test files changed by the agent (restored, not scored): ${r.tampered.join(', ')}`);
  if (r.outside_changes.length) out.push(`Changed outside app/code: ${r.outside_changes.join(', ')}`);
  if (r.harness_tampering?.length) out.push(`Changes how pytest collects or reports tests: ${r.harness_tampering.join(', ')}`);
  if (r.oversized?.length) out.push(`Too large to commit, not scored: ${r.oversized.join(', ')}`);
  if (r.isolation === 'none' && r.iteration > 0) out.push('Not isolated: the agents and the code under test could read the oracle and change the records.');
  return out;
}

export function iterationTitle(d: Pick<IterationDetails, 'run' | 'iteration'>): string {
  return `${d.run} ${d.iteration === 0 ? 'base' : `#${d.iteration}`}`;
}

export const lines = (parts: (SafeHtml | '')[]): SafeHtml => html`${parts.map((p, i) => (i ? ['\n', p] : p))}`;

export function iterationBody(d: IterationDetails, selectedForCompare?: string): SafeHtml {
  const r = d.record;
  const pos = d.iterations.indexOf(d.iteration);
  const last = d.iterations[d.iterations.length - 1];
  const nav = [
    button('step', '‹ Previous', { arg: -1, disabled: pos <= 0, title: 'Previous iteration' }),
    html`<h1>${d.run} <span class="muted">${d.iteration === 0 ? 'base' : `iteration ${d.iteration} of ${last}`}</span></h1>`,
    button('step', 'Next ›', { arg: 1, disabled: pos < 0 || pos >= d.iterations.length - 1, title: 'Next iteration' }),
  ];
  const compare = [
    button('select-for-compare', 'Select for Compare'),
    // The iteration shown is never offered for comparing with itself.
    selectedForCompare && selectedForCompare !== revisionLabel(d.run, d.iteration) ? button('compare-with-selected', `Compare with ${selectedForCompare}`) : '',
  ];
  const score =
    r.gap < 0
      ? html`<p class="error">pytest did not run${r.pytest_error ? `: ${r.pytest_error}` : ''}</p>`
      : html`<dl class="score"><div><dt>a(c)</dt><dd>${formatChange(d.change).replace('a(c) ', '')}</dd></div><div><dt>passed / target</dt><dd>${r.passed ?? '–'} / ${r.target_passed}</dd></div><div><dt>gap</dt><dd>${r.gap}</dd></div><div><dt>regressed</dt><dd>${r.regressions.length}</dd></div>${r.pytest_time === undefined ? '' : html`<div><dt>pytest</dt><dd>${r.pytest_time.toFixed(1)} s</dd></div>`}</dl>`;
  const warn = html`${flags(d).map((f) => html`<p class="warning">${f}</p>`)}`;
  const note = r.note ? html`<p class="note">${r.note}</p>` : '';
  const hasReport = d.files.some((f) => f.report);
  const code =
    d.hasCodeChanges || hasReport
      ? html`<div class="actions">${d.hasCodeChanges ? button('open-code-changes', 'Code Changes', { title: 'Open the files this iteration changed in a multi-file diff editor' }) : ''}${hasReport ? button('open-test-report', 'Test Report', { title: 'Each test’s outcome, duration and message, failures first' }) : ''}</div>`
      : '';
  // The test report opens as a table here; its raw JSON is beside it.
  const file = (f: IterationDetails['files'][number], i: number) =>
    f.report
      ? html`<li><a href="#" data-action="open-test-report">${f.label}</a> <a href="#" class="muted" data-action="open-file" data-arg="${i}">(raw JSON)</a></li>`
      : html`<li><a href="#" data-action="open-file" data-arg="${i}">${f.label}</a></li>`;
  const files = d.files.length ? html`<section><h2>Files</h2><ul class="files">${d.files.map(file)}</ul></section>` : '';
  return lines([
    html`<header><nav>${nav}</nav><div class="actions">${compare}</div></header>`,
    score,
    warn,
    note,
    code,
    html`<div class="columns">${testList('Newly passing', d.newlyPassing, 'passing')}${testList('Newly regressed', d.newlyRegressed, 'regressed')}</div>`,
    requirementSection(d),
    stepsSection(d),
    files,
    html`<p class="muted">commit <code>${r.commit.slice(0, 12)}</code></p>`,
  ]);
}

function sideCells(s: ComparedSide): string[] {
  const r = s.record;
  if (r.gap < 0) return [formatChange(undefined).replace('a(c) ', ''), '–', 'pytest did not run', '–'];
  return [formatChange(s.change).replace('a(c) ', ''), `${r.passed ?? '–'} / ${r.target_passed}`, String(r.gap), String(r.regressions.length)];
}

export function comparisonTitle(c: Comparison): string {
  return `${c.left.label} ↔ ${c.right.label}`;
}

export function comparisonBody(c: Comparison): SafeHtml {
  const heads = ['', 'a(c)', 'passed / target', 'gap', 'regressed'];
  const row = (s: ComparedSide) => html`<tr><th>${s.label}</th>${sideCells(s).map((x) => html`<td>${x}</td>`)}</tr>`;
  const tests = c.testsCompared
    ? html`<div class="columns">${testList(`Pass in ${c.left.label} only`, c.onlyLeft, 'side')}${testList(`Pass in ${c.right.label} only`, c.onlyRight, 'side')}</div>`
    : html`<p class="muted">The tests cannot be compared one by one: pytest did not run on one side, or its report was not archived.</p>`;
  // Previous / Next move both sides together; at either run's end the button says why it cannot.
  const step = (direction: 1 | -1, label: string, title: string) => {
    const to = comparisonStep(c, direction);
    return typeof to === 'string'
      ? button('step', label, { arg: direction, disabled: true, title: to })
      : button('step', label, {
          arg: direction,
          title: `${title}: ${revisionLabel(to.left.run, to.left.iteration)} ↔ ${revisionLabel(to.right.run, to.right.iteration)}`,
        });
  };
  const nav = [
    step(-1, '‹ Previous', 'Both sides one iteration back'),
    html`<h1>${c.left.label} <span class="muted">↔</span> ${c.right.label}</h1>`,
    step(1, 'Next ›', 'Both sides one iteration on'),
  ];
  // A side with no requirement.xml (the base, a replay of the developers' commits) has nothing to diff.
  const noRequirement = [c.left, c.right].filter((s) => !s.hasRequirement).map((s) => s.label);
  const requirementDiff = noRequirement.length
    ? button('open-requirement-diff', 'requirement.xml ↔', {
        disabled: true,
        title: `${noRequirement.join(' and ')} archived no requirement.xml (the base and a replay of the developers' commits have none)`,
      })
    : button('open-requirement-diff', 'requirement.xml ↔', { title: 'Open the two requirement.xml side by side' });
  return lines([
    html`<header><nav>${nav}</nav></header>`,
    html`<table class="steps"><thead><tr>${heads.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${row(c.left)}${row(c.right)}</tbody></table>`,
    html`<div class="actions">${button('open-code-changes', 'Code ↔', { title: 'Open the files that differ in a multi-file diff editor' })}${requirementDiff}</div>`,
    tests,
  ]);
}

export function iterationContent(d: IterationDetails, selectedForCompare?: string): WebviewContent {
  return { title: iterationTitle(d), body: iterationBody(d, selectedForCompare) };
}

export function comparisonContent(c: Comparison): WebviewContent {
  return { title: comparisonTitle(c), body: comparisonBody(c) };
}
