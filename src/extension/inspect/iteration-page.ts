// What the iteration view shows of an iteration, or of two compared, as the page it sends the
// webview (shared/iteration-protocol.ts): every text worded here, every button enabled or not
// with its reason, no path. No VS Code API, so unit tests build it too; the webview only lays it
// out (webview-ui/iteration-view.ts), putting recorded text in the DOM as text. Words go through
// @vscode/l10n (the extension configures it with VS Code's bundle at activation; unconfigured it
// gives the English, as in unit tests).
import * as l10n from '@vscode/l10n';
import { comparisonStep, type Comparison, type ComparedSide } from '../../core/inspect/comparison';
import type { IterationDetails } from '../../core/inspect/iteration-details';
import { revisionLabel } from '../../core/inspect/revisions';
import type { IterationPage, PageControl } from '../../shared/iteration-protocol';
import { formatChange, formatTokens } from '../revisions/iteration-text';

/** Tests listed past this are counted, not listed. */
const LIST_LIMIT = 200;

/** A page and the panel's title for it. */
export interface ShownPage {
  title: string;
  page: IterationPage;
}

type PageOf<K extends IterationPage['kind']> = Extract<IterationPage, { kind: K }>;
type TestList = PageOf<'iteration'>['tests'][number];

export function button(action: PageControl['action'], label: string, opts: Omit<PageControl, 'action' | 'label'> = {}): PageControl {
  return { action, label, ...opts };
}

function testList(title: string, ids: string[], kind: TestList['kind']): TestList {
  return { title: `${title} (${ids.length})`, kind, ids: ids.slice(0, LIST_LIMIT), more: Math.max(0, ids.length - LIST_LIMIT) };
}

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

function stepRows(d: IterationDetails): PageOf<'iteration'>['steps'] {
  return d.steps.map(({ role, step }) => {
    const tries = d.transcripts.filter((t) => t.role === role);
    const notes = [
      step.removed_from_app?.length
        ? `Removed from app/ (only code/, requirement.xml, non-passed/ and memory/ carry over to the next step): ${step.removed_from_app.join(', ')}`
        : undefined,
      step.discarded_changes?.length ? `Code changes thrown away (the Architect writes requirement.xml only): ${step.discarded_changes.join(', ')}` : undefined,
      // Tries that failed before the one that counted, and what the agent was allowed to do.
      step.failed_tries?.length ? `Failed tries: ${step.failed_tries.join('; ')}` : undefined,
      step.permissions ? `Allowed: ${step.permissions}` : undefined,
      step.usage_source === 'wire' ? modelNote(step) : undefined,
    ];
    return {
      role,
      cells: [
        role === 'architect' ? 'Architect' : 'Programmer',
        step.kind === 'human' ? `human${step.agent && step.agent !== 'human' ? ` (${step.agent})` : ''}` : step.agent,
        step.execution_time === undefined ? '–' : `${step.execution_time.toFixed(1)} s`,
        `${formatTokens(step.input_tokens) ?? '–'} in / ${formatTokens(step.output_tokens) ?? '–'} out`,
        step.cost_usd === undefined ? '–' : `$${step.cost_usd.toFixed(2)}`,
        String(step.tries),
      ],
      // One link per try with a transcript: "Transcript", or "try 1 · try 2".
      transcripts: tries.map((t) => ({
        try: t.try,
        label: tries.length === 1 ? l10n.t('Transcript') : l10n.t('try {0}', t.try),
        title: l10n.t('What the agent did in try {0}: its model calls, tool calls and the files it wrote', t.try),
      })),
      notes: notes.filter((n): n is string => n !== undefined),
    };
  });
}

function requirement(d: IterationDetails): PageOf<'iteration'>['requirement'] {
  const r = d.requirement;
  if (!r) return d.iteration === 0 || d.runKind === 'human-history' ? undefined : { missing: l10n.t('This iteration archived no requirement.xml.') };
  const diff = r.previousFile
    ? [
        button('open-requirement-diff', l10n.t('Diff with #{0}', String(r.previousIteration)), {
          title: l10n.t('Open requirement.xml side by side with the previous iteration’s'),
        }),
      ]
    : [];
  const state = r.previousFile
    ? r.changed
      ? l10n.t('changed since #{0}', String(r.previousIteration))
      : l10n.t('same as #{0}', String(r.previousIteration))
    : l10n.t('the run’s first');
  return { state, actions: [button('open-requirement', l10n.t('Open')), ...diff], text: r.text };
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

/** "iteration 2 of 4", or "base", for the heading. */
export function iterationPosition(d: Pick<IterationDetails, 'iteration' | 'iterations'>): string {
  return d.iteration === 0 ? 'base' : `iteration ${d.iteration} of ${d.iterations[d.iterations.length - 1]}`;
}

/** Previous / Next along the run: disabled at its ends. */
export function stepButtons(d: Pick<IterationDetails, 'iteration' | 'iterations'>, titles: [string, string]): [PageControl, PageControl] {
  const pos = d.iterations.indexOf(d.iteration);
  return [
    button('step', '‹ Previous', { arg: -1, title: titles[0], disabled: pos <= 0 }),
    button('step', 'Next ›', { arg: 1, title: titles[1], disabled: pos < 0 || pos >= d.iterations.length - 1 }),
  ];
}

/** a(c) as the view shows it: the number alone. */
const changeText = (a: number | undefined) => formatChange(a).replace('a(c) ', '');

function iterationPage(d: IterationDetails, selectedForCompare?: string): PageOf<'iteration'> {
  const r = d.record;
  const [previous, next] = stepButtons(d, ['Previous iteration', 'Next iteration']);
  const actions = [button('select-for-compare', 'Select for Compare')];
  // The iteration shown is never offered for comparing with itself.
  if (selectedForCompare && selectedForCompare !== revisionLabel(d.run, d.iteration))
    actions.push(button('compare-with-selected', `Compare with ${selectedForCompare}`));
  const score =
    r.gap < 0
      ? { error: `pytest did not run${r.pytest_error ? `: ${r.pytest_error}` : ''}` }
      : {
          cells: [
            { term: 'a(c)', value: changeText(d.change) },
            { term: 'passed / target', value: `${r.passed ?? '–'} / ${r.target_passed}` },
            { term: 'gap', value: String(r.gap) },
            { term: 'regressed', value: String(r.regressions.length) },
            ...(r.pytest_time === undefined ? [] : [{ term: 'pytest', value: `${r.pytest_time.toFixed(1)} s` }]),
          ],
        };
  const hasReport = d.files.some((f) => f.report);
  const code = [
    ...(d.hasCodeChanges
      ? [button('open-code-changes', l10n.t('Code Changes'), { title: l10n.t('Open the files this iteration changed in a multi-file diff editor') })]
      : []),
    ...(hasReport ? [button('open-test-report', l10n.t('Test Report'), { title: l10n.t('Each test’s outcome, duration and message, failures first') })] : []),
  ];
  const req = requirement(d);
  return {
    kind: 'iteration',
    header: { previous, heading: [{ text: d.run }, { text: iterationPosition(d), muted: true }], next, actions },
    score,
    warnings: flags(d),
    ...(r.note ? { note: r.note } : {}),
    actions: code,
    tests: [testList('Newly passing', d.newlyPassing, 'passing'), testList('Newly regressed', d.newlyRegressed, 'regressed')],
    ...(req ? { requirement: req } : {}),
    steps: stepRows(d),
    files: d.files.map((f) => ({ label: f.label, report: f.report === true })),
    commit: r.commit.slice(0, 12),
  };
}

function sideCells(s: ComparedSide): string[] {
  const r = s.record;
  if (r.gap < 0) return [changeText(undefined), '–', 'pytest did not run', '–'];
  return [changeText(s.change), `${r.passed ?? '–'} / ${r.target_passed}`, String(r.gap), String(r.regressions.length)];
}

function comparisonTitle(c: Comparison): string {
  return `${c.left.label} ↔ ${c.right.label}`;
}

function comparisonPage(c: Comparison): PageOf<'compare'> {
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
  // A side with no requirement.xml (the base, a replay of the developers' commits) has nothing to diff.
  const noRequirement = [c.left, c.right].filter((s) => !s.hasRequirement).map((s) => s.label);
  const requirementDiff = noRequirement.length
    ? button('open-requirement-diff', 'requirement.xml ↔', {
        disabled: true,
        title: l10n.t("{0} archived no requirement.xml (the base and a replay of the developers' commits have none)", noRequirement.join(` ${l10n.t('and')} `)),
      })
    : button('open-requirement-diff', 'requirement.xml ↔', { title: l10n.t('Open the two requirement.xml side by side') });
  return {
    kind: 'compare',
    header: {
      previous: step(-1, `‹ ${l10n.t('Previous')}`, l10n.t('Both sides one iteration back')),
      heading: [{ text: c.left.label }, { text: '↔', muted: true }, { text: c.right.label }],
      next: step(1, `${l10n.t('Next')} ›`, l10n.t('Both sides one iteration on')),
      actions: [],
    },
    heads: ['', 'a(c)', 'passed / target', 'gap', 'regressed'],
    rows: [c.left, c.right].map((s) => ({ label: s.label, cells: sideCells(s) })),
    actions: [button('open-code-changes', `${l10n.t('Code')} ↔`, { title: l10n.t('Open the files that differ in a multi-file diff editor') }), requirementDiff],
    tests: c.testsCompared
      ? {
          lists: [
            testList(l10n.t('Pass in {0} only', c.left.label), c.onlyLeft, 'side'),
            testList(l10n.t('Pass in {0} only', c.right.label), c.onlyRight, 'side'),
          ],
        }
      : { note: 'The tests cannot be compared one by one: pytest did not run on one side, or its report was not archived.' },
  };
}

export function iterationContent(d: IterationDetails, selectedForCompare?: string): ShownPage {
  return { title: iterationTitle(d), page: iterationPage(d, selectedForCompare) };
}

export function comparisonContent(c: Comparison): ShownPage {
  return { title: comparisonTitle(c), page: comparisonPage(c) };
}
