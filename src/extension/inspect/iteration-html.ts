// The iteration view's HTML, rendered by the host from IterationDetails (no VS Code API, so unit
// tests render it too). Everything recorded by agents, pytest or upstream commits is escaped;
// clicks go through data-action attributes (shared/iteration-protocol.ts).
import type { Comparison, ComparedSide } from '../../core/inspect/comparison';
import type { IterationDetails } from '../../core/inspect/iteration-details';
import { escapeAttr, escapeText } from '../../core/report/report-html';
import { webviewCsp } from '../chart/chart-html';
import { formatChange, formatTokens } from '../views/iteration-text';

export interface IterationHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** The revision chosen with Select for Compare, if any (e.g. `agent-1 #3`). */
  selectedForCompare?: string;
}

const LIST_LIMIT = 200;

function button(action: string, label: string, opts: { arg?: string | number; disabled?: boolean; title?: string } = {}): string {
  const arg = opts.arg === undefined ? '' : ` data-arg="${escapeAttr(String(opts.arg))}"`;
  const title = opts.title ? ` title="${escapeAttr(opts.title)}"` : '';
  return `<button data-action="${action}"${arg}${title}${opts.disabled ? ' disabled' : ''}>${escapeText(label)}</button>`;
}

function testList(title: string, ids: string[], cls: string): string {
  if (ids.length === 0) return `<section class="tests ${cls}"><h2>${escapeText(title)} (0)</h2><p class="muted">None.</p></section>`;
  const items = ids
    .slice(0, LIST_LIMIT)
    .map((id) => `<li><a href="#" data-action="open-test" data-arg="${escapeAttr(id)}">${escapeText(id)}</a></li>`)
    .join('');
  const more = ids.length > LIST_LIMIT ? `<li class="muted">… ${ids.length - LIST_LIMIT} more</li>` : '';
  return `<section class="tests ${cls}"><h2>${escapeText(title)} (${ids.length})</h2><ul>${items}${more}</ul></section>`;
}

function stepsSection(d: IterationDetails): string {
  if (d.steps.length === 0) return '';
  const rows = d.steps.map(({ role, step }) => {
    const cells = [
      role === 'architect' ? 'Architect' : 'Programmer',
      step.kind === 'human' ? `human${step.agent && step.agent !== 'human' ? ` (${step.agent})` : ''}` : step.agent,
      step.execution_time === undefined ? '–' : `${step.execution_time.toFixed(1)} s`,
      `${formatTokens(step.input_tokens) ?? '–'} in / ${formatTokens(step.output_tokens) ?? '–'} out`,
      step.cost_usd === undefined ? '–' : `$${step.cost_usd.toFixed(2)}`,
      String(step.tries),
    ];
    const discarded = step.discarded_changes?.length
      ? `<tr><td></td><td colspan="5" class="muted">Code changes thrown away (the Architect writes requirement.xml only): ${escapeText(step.discarded_changes.join(', '))}</td></tr>`
      : '';
    // Tries that failed before the one that counted, and what the agent was allowed to do.
    const failed = step.failed_tries?.length
      ? `<tr><td></td><td colspan="5" class="muted">Failed tries: ${escapeText(step.failed_tries.join('; '))}</td></tr>`
      : '';
    const allowed = step.permissions ? `<tr><td></td><td colspan="5" class="muted">Allowed: ${escapeText(step.permissions)}</td></tr>` : '';
    return `<tr>${cells.map((c) => `<td>${escapeText(c)}</td>`).join('')}</tr>${discarded}${failed}${allowed}`;
  });
  return `<section><h2>Roles</h2><table class="steps"><thead><tr><th>Role</th><th>Who</th><th>Time</th><th>Tokens</th><th>Cost</th><th>Tries</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

function requirementSection(d: IterationDetails): string {
  const r = d.requirement;
  if (!r)
    return d.iteration === 0 || d.runKind === 'human-history'
      ? ''
      : '<section><h2>requirement.xml</h2><p class="muted">This iteration archived no requirement.xml.</p></section>';
  const diff = r.previousFile
    ? button('open-requirement-diff', `Diff with #${r.previousIteration}`, { title: 'Open requirement.xml side by side with the previous iteration’s' })
    : '';
  const state = r.previousFile ? (r.changed ? `changed since #${r.previousIteration}` : `same as #${r.previousIteration}`) : 'the run’s first';
  return `<section><h2>requirement.xml <span class="muted">${escapeText(state)}</span></h2><div class="actions">${button('open-requirement', 'Open')}${diff}</div><pre class="requirement">${escapeText(r.text)}</pre></section>`;
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

export function iterationBody(d: IterationDetails, selectedForCompare?: string): string {
  const r = d.record;
  const pos = d.iterations.indexOf(d.iteration);
  const last = d.iterations[d.iterations.length - 1];
  const nav = [
    button('step', '‹ Previous', { arg: -1, disabled: pos <= 0, title: 'Previous iteration' }),
    `<h1>${escapeText(d.run)} <span class="muted">${d.iteration === 0 ? 'base' : `iteration ${d.iteration} of ${last}`}</span></h1>`,
    button('step', 'Next ›', { arg: 1, disabled: pos < 0 || pos >= d.iterations.length - 1, title: 'Next iteration' }),
  ].join('');
  const compare = [
    button('select-for-compare', 'Select for Compare'),
    selectedForCompare ? button('compare-with-selected', `Compare with ${selectedForCompare}`) : '',
  ].join('');
  const score =
    r.gap < 0
      ? `<p class="error">pytest did not run${r.pytest_error ? `: ${escapeText(r.pytest_error)}` : ''}</p>`
      : `<dl class="score"><div><dt>a(c)</dt><dd>${escapeText(formatChange(d.change).replace('a(c) ', ''))}</dd></div><div><dt>passed / target</dt><dd>${r.passed ?? '–'} / ${r.target_passed}</dd></div><div><dt>gap</dt><dd>${r.gap}</dd></div><div><dt>regressed</dt><dd>${r.regressions.length}</dd></div>${r.pytest_time === undefined ? '' : `<div><dt>pytest</dt><dd>${r.pytest_time.toFixed(1)} s</dd></div>`}</dl>`;
  const warn = flags(d)
    .map((f) => `<p class="warning">${escapeText(f)}</p>`)
    .join('');
  const note = r.note ? `<p class="note">${escapeText(r.note)}</p>` : '';
  const code = d.hasCodeChanges
    ? `<div class="actions">${button('open-code-changes', 'Code Changes', { title: 'Open the files this iteration changed in a multi-file diff editor' })}</div>`
    : '';
  const files = d.files.length
    ? `<section><h2>Files</h2><ul class="files">${d.files.map((f, i) => `<li><a href="#" data-action="open-file" data-arg="${i}">${escapeText(f.label)}</a></li>`).join('')}</ul></section>`
    : '';
  return [
    `<header><nav>${nav}</nav><div class="actions">${compare}</div></header>`,
    score,
    warn,
    note,
    code,
    `<div class="columns">${testList('Newly passing', d.newlyPassing, 'passing')}${testList('Newly regressed', d.newlyRegressed, 'regressed')}</div>`,
    requirementSection(d),
    stepsSection(d),
    files,
    `<p class="muted">commit <code>${escapeText(r.commit.slice(0, 12))}</code></p>`,
  ].join('\n');
}

function sideCells(s: ComparedSide): string[] {
  const r = s.record;
  if (r.gap < 0) return [formatChange(undefined).replace('a(c) ', ''), '–', 'pytest did not run', '–'];
  return [formatChange(s.change).replace('a(c) ', ''), `${r.passed ?? '–'} / ${r.target_passed}`, String(r.gap), String(r.regressions.length)];
}

export function comparisonTitle(c: Comparison): string {
  return `${c.left.label} ↔ ${c.right.label}`;
}

export function comparisonBody(c: Comparison): string {
  const heads = ['', 'a(c)', 'passed / target', 'gap', 'regressed'];
  const row = (s: ComparedSide) =>
    `<tr><th>${escapeText(s.label)}</th>${sideCells(s)
      .map((x) => `<td>${escapeText(x)}</td>`)
      .join('')}</tr>`;
  const tests = c.testsCompared
    ? `<div class="columns">${testList(`Pass in ${c.left.label} only`, c.onlyLeft, 'side')}${testList(`Pass in ${c.right.label} only`, c.onlyRight, 'side')}</div>`
    : '<p class="muted">The tests cannot be compared one by one: pytest did not run on one side, or its report was not archived.</p>';
  return [
    `<header><nav><h1>${escapeText(c.left.label)} <span class="muted">↔</span> ${escapeText(c.right.label)}</h1></nav></header>`,
    `<table class="steps"><thead><tr>${heads.map((h) => `<th>${escapeText(h)}</th>`).join('')}</tr></thead><tbody>${row(c.left)}${row(c.right)}</tbody></table>`,
    `<div class="actions">${button('open-code-changes', 'Code ↔', { title: 'Open the files that differ in a multi-file diff editor' })}${button('open-requirement-diff', 'requirement.xml ↔', { title: 'Open the two requirement.xml side by side' })}</div>`,
    tests,
  ].join('\n');
}

function page(title: string, body: string, o: IterationHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(o.cspSource, o.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(o.styleUri)}">
<title>${escapeText(title)}</title>
</head>
<body>
${body}
<script nonce="${o.nonce}" src="${escapeAttr(o.scriptUri)}"></script>
</body>
</html>
`;
}

export function iterationHtml(d: IterationDetails, o: IterationHtmlOptions): string {
  return page(iterationTitle(d), iterationBody(d, o.selectedForCompare), o);
}

export function comparisonHtml(c: Comparison, o: IterationHtmlOptions): string {
  return page(comparisonTitle(c), comparisonBody(c), o);
}
