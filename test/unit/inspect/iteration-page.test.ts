// The iteration view's pages and its messages: the page the host sends carries recorded text as
// text (the webview never parses it as HTML), every button says why it is disabled, clicks map to
// validated messages, and a message names what to open by index or node id, never by path.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { guardFor } from '../../../src/shared/message-schema';
import type { Comparison } from '../../../src/core/inspect/comparison';
import type { IterationDetails } from '../../../src/core/inspect/iteration-details';
import { stepIteration } from '../../../src/core/inspect/iteration-details';
import { revisionLabel } from '../../../src/core/inspect/revisions';
import { comparisonContent, iterationContent } from '../../../src/extension/inspect/iteration-page';
import {
  ITERATION_VIEW_ACTIONS,
  isIterationHostMessage,
  iterationViewMessageSchema,
  messageForAction,
  type IterationPage,
  type PageControl,
} from '../../../src/shared/iteration-protocol';
import { repoRoot } from '../helpers/repo-root';
import { iterationDetails, iterationRecord } from './iteration-fixtures';

/** What the iteration view's host accepts from its page (it checks messages with this schema). */
const isIterationViewMessage = guardFor(iterationViewMessageSchema);

const HOSTILE = '</pre><script>alert(1)</script><img src=x onerror=alert(2)>';

const record = iterationRecord;

function details(over: Partial<IterationDetails> = {}): IterationDetails {
  return iterationDetails({
    change: 0.5,
    newlyPassing: ['tests/test_a.py::test_ok'],
    newlyRegressed: [`tests/test_b.py::test_${HOSTILE}`],
    requirement: {
      file: '/x/requirement.xml',
      text: `<requirement>${HOSTILE}</requirement>`,
      previousFile: '/x/prev.xml',
      previousIteration: 1,
      changed: true,
    },
    steps: [
      {
        role: 'programmer',
        step: {
          kind: 'agent',
          agent: `evil ${HOSTILE}`,
          tries: 2,
          execution_time: 12.34,
          input_tokens: 12_000,
          output_tokens: 800,
          failed_tries: [`try 1: exited 0 but the model call failed: [API Error: ${HOSTILE}]`],
          permissions: 'every action accepted (confined)',
          removed_from_app: ['app/.claude', `app/${HOSTILE}`],
        },
      },
    ],
    files: [{ label: `log ${HOSTILE}`, file: '/x/a.log' }],
    hasCodeChanges: true,
    transcripts: [],
    ...over,
  });
}

type PageOf<K extends IterationPage['kind']> = Extract<IterationPage, { kind: K }>;

/** The page the view sends, checked against the protocol the webview checks it with. */
function checked<P extends IterationPage>(page: P): P {
  assert.ok(isIterationHostMessage({ type: 'show', page }), 'the page passes the protocol');
  return page;
}
const iterationPage = (d: IterationDetails, selectedForCompare?: string): PageOf<'iteration'> => {
  const p = iterationContent(d, selectedForCompare).page;
  assert.equal(p.kind, 'iteration');
  return checked(p);
};
const comparisonPage = (c: Comparison): PageOf<'compare'> => {
  const p = comparisonContent(c).page;
  assert.equal(p.kind, 'compare');
  return checked(p);
};
/** Every button of a page. */
function buttons(p: IterationPage): PageControl[] {
  const own =
    p.kind === 'iteration'
      ? [...p.actions, ...(p.requirement && 'actions' in p.requirement ? p.requirement.actions : [])]
      : p.kind === 'compare'
        ? p.actions
        : [];
  return [p.header.previous, p.header.next, ...p.header.actions, ...own];
}
const buttonFor = (p: IterationPage, action: PageControl['action']) => buttons(p).filter((b) => b.action === action);

test('recorded text travels as text, and the webview never parses text as HTML', () => {
  const d = details({ record: record({ note: HOSTILE, pytest_error: HOSTILE }) });
  const p = iterationPage(d);
  assert.equal(p.note, HOSTILE);
  assert.deepEqual(p.tests[1].ids, [`tests/test_b.py::test_${HOSTILE}`]);
  assert.ok(p.requirement && 'text' in p.requirement && p.requirement.text === `<requirement>${HOSTILE}</requirement>`);
  assert.equal(p.steps[0].cells[1], `evil ${HOSTILE}`);
  assert.equal(p.files[0].label, `log ${HOSTILE}`);
  assert.deepEqual(iterationPage(details({ record: record({ gap: -1, passed: null, pytest_error: HOSTILE }) })).score, {
    error: `pytest did not run: ${HOSTILE}`,
  });
  // The page holds no path: files are opened by index.
  assert.ok(!JSON.stringify(p).includes('/x/'), 'no archived file path in the page');
  // The view's DOM is built from elements and text nodes only.
  for (const file of ['iteration-view.ts', 'iteration-page.ts', 'dom.ts']) {
    const source = fs.readFileSync(path.join(repoRoot, 'webview-ui', file), 'utf8');
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|DOMParser|document\.write|createContextualFragment/, file);
  }
});

test('the view shows the scores, the newly passing and regressed tests as links, and the roles', () => {
  const p = iterationPage(details(), 'human-history #2');
  assert.deepEqual(p.header.heading, [{ text: 'agent-1' }, { text: 'iteration 2 of 3', muted: true }]);
  assert.ok('cells' in p.score);
  assert.deepEqual(p.score.cells.slice(0, 2), [
    { term: 'a(c)', value: '0.50' },
    { term: 'passed / target', value: '7 / 10' },
  ]);
  assert.deepEqual(p.tests[0], { title: 'Newly passing (1)', kind: 'passing', ids: ['tests/test_a.py::test_ok'], more: 0 });
  assert.equal(p.tests[1].title, 'Newly regressed (1)');
  assert.deepEqual(p.steps[0].cells, ['Programmer', `evil ${HOSTILE}`, '12.3 s', '12k in / 800 out', '–', '2']);
  assert.deepEqual(buttonFor(p, 'compare-with-selected'), [{ action: 'compare-with-selected', label: 'Compare with human-history #2' }]);
  assert.deepEqual(p.files, [{ label: `log ${HOSTILE}`, report: false }], 'opened by its index, 0');
  assert.ok(p.requirement && 'state' in p.requirement && p.requirement.state === 'changed since #1');
  assert.equal(p.commit, 'abcdef123456');
  const notes = p.steps[0].notes;
  // Why the first try did not count (the text is the CLI's), and what the agent could do.
  assert.ok(notes.includes(`Failed tries: try 1: exited 0 but the model call failed: [API Error: ${HOSTILE}]`), notes.join('\n'));
  assert.ok(notes.includes('Allowed: every action accepted (confined)'));
  // What the step left in app/ besides the protocol's files, removed and named (issue 29).
  assert.ok(
    notes.includes(`Removed from app/ (only code/, requirement.xml, non-passed/ and memory/ carry over to the next step): app/.claude, app/${HOSTILE}`),
  );
});

test('Previous is disabled at the first iteration and Next at the last', () => {
  const first = iterationPage(details({ iteration: 0, iterations: [0, 1], hasCodeChanges: false, requirement: undefined, steps: [] }));
  assert.deepEqual(first.header.previous, { action: 'step', label: '‹ Previous', arg: -1, title: 'Previous iteration', disabled: true });
  assert.equal(first.header.next.disabled, false);
  assert.deepEqual(buttonFor(first, 'open-code-changes'), [], 'the base has no code changes');
  assert.deepEqual(first.header.heading[1], { text: 'base', muted: true });
  const last = iterationPage(details({ iteration: 1, iterations: [0, 1] }));
  assert.deepEqual(last.header.next, { action: 'step', label: 'Next ›', arg: 1, title: 'Next iteration', disabled: true });
  assert.equal(stepIteration([0, 1, 3], 1, 1), 3, 'steps follow the recorded iterations, gaps included');
  assert.equal(stepIteration([0, 1, 3], 3, 1), undefined);
  assert.equal(stepIteration([0, 1, 3], 0, -1), undefined);
  assert.equal(stepIteration([0, 1, 3], 2, 1), undefined);
});

test('a comparison lists both sides and the tests only one passes', () => {
  const c: Comparison = {
    left: {
      run: 'human-history',
      iteration: 5,
      label: 'human-history #5',
      record: record({ passed: 9 }),
      change: 0.8,
      iterations: [0, 5],
      hasRequirement: false,
    },
    right: {
      run: 'agent-1',
      iteration: 5,
      label: 'agent-1 #5',
      record: record({ gap: -1, passed: null, pytest_error: HOSTILE }),
      iterations: [0, 5],
      hasRequirement: true,
    },
    onlyLeft: ['t::a', 't::b'],
    onlyRight: [],
    testsCompared: true,
  };
  const p = comparisonPage(c);
  assert.deepEqual(p.header.heading, [{ text: 'human-history #5' }, { text: '↔', muted: true }, { text: 'agent-1 #5' }]);
  assert.ok('lists' in p.tests);
  assert.deepEqual(
    p.tests.lists.map((l) => [l.title, l.ids]),
    [
      ['Pass in human-history #5 only (2)', ['t::a', 't::b']],
      ['Pass in agent-1 #5 only (0)', []],
    ],
  );
  assert.deepEqual(p.rows, [
    { label: 'human-history #5', cells: ['0.80', '9 / 10', '3', '0'] },
    { label: 'agent-1 #5', cells: ['–', '–', 'pytest did not run', '–'] },
  ]);
  assert.deepEqual(comparisonPage({ ...c, testsCompared: false }).tests, {
    note: 'The tests cannot be compared one by one: pytest did not run on one side, or its report was not archived.',
  });
});

test('clicks become validated messages; anything else is dropped', () => {
  assert.deepEqual(messageForAction('step', '1'), { type: 'step', direction: 1 });
  assert.deepEqual(messageForAction('step', '-1'), { type: 'step', direction: -1 });
  assert.equal(messageForAction('step', '2'), undefined);
  assert.deepEqual(messageForAction('open-file', '3'), { type: 'open-file', index: 3 });
  assert.equal(messageForAction('open-file', '../x'), undefined);
  assert.equal(messageForAction('open-file', '-1'), undefined);
  assert.deepEqual(messageForAction('open-test', 't.py::x'), { type: 'open-test', nodeid: 't.py::x' });
  assert.equal(messageForAction('open-test', ''), undefined);
  assert.equal(messageForAction('run-shell', 'rm'), undefined);
  assert.deepEqual(messageForAction('open-transcript', 'programmer:2'), { type: 'open-transcript', role: 'programmer', try: 2 });
  assert.equal(messageForAction('open-transcript', 'reviewer:1'), undefined);
  assert.equal(messageForAction('open-transcript', 'architect:0'), undefined);
  for (const a of ITERATION_VIEW_ACTIONS)
    assert.ok(isIterationViewMessage(messageForAction(a, a === 'step' ? '1' : a === 'open-file' ? '0' : a === 'open-transcript' ? 'architect:1' : 'x')), a);
  // The page's own message is no click.
  assert.ok(!(ITERATION_VIEW_ACTIONS as string[]).includes('ready'));
  assert.equal(messageForAction('ready', undefined), undefined);
  assert.ok(isIterationViewMessage({ type: 'ready' }));
  assert.equal(isIterationViewMessage({ type: 'open-file', index: 1.5 }), false);
  assert.equal(isIterationViewMessage(null), false);
  assert.equal(isIterationViewMessage([]), false);
  assert.equal(isIterationViewMessage({ type: 'open-test', nodeid: 't::x', path: '/etc/passwd' }), false, 'a field the protocol does not have');
  assert.equal(isIterationViewMessage({ type: 'toString' }), false, 'no inherited key is a message type');
  // The host's page is checked by the webview too: a button with an action the protocol does not have is refused.
  const p = iterationPage(details());
  assert.equal(isIterationHostMessage({ type: 'show', page: { ...p, actions: [{ action: 'run-shell', label: 'x' }] } }), false);
  assert.equal(isIterationHostMessage({ type: 'show', page: { ...p, extra: 1 } }), false);
});

test("a step whose calls went through the gateway says how many, that its tokens are the wire's, what the agent itself reported, and that its cost is unknown without a price", () => {
  const d = details({
    steps: [
      {
        role: 'architect',
        step: {
          kind: 'agent',
          agent: 'Qwen Code',
          tries: 1,
          input_tokens: 10_004,
          output_tokens: 208,
          cached_tokens: 1_000,
          model_calls: 5,
          usage_source: 'wire',
          agent_reported: { input_tokens: 8_003, output_tokens: 166 },
          network: 'model-only',
        },
      },
    ],
  });
  const notes = iterationPage(d).steps[0].notes;
  assert.equal(notes.length, 1);
  assert.match(
    notes[0],
    /^Model: 5 model calls through the gateway \(tokens as the wire reported them, 1(\.0)?k cached\), cost unknown \(no price: sweci\.agents\.prices\); the agent reported 8(\.0)?k in \/ 166 out; no network but its model$/,
  );
});

test('the iteration selected for Compare is not offered for comparing with itself (issue 31, item 5)', () => {
  const d = details();
  assert.equal(buttonFor(iterationPage(d, 'human-history #2'), 'compare-with-selected')[0]?.label, 'Compare with human-history #2');
  const self = iterationPage(d, revisionLabel(d.run, d.iteration));
  assert.deepEqual(buttonFor(self, 'compare-with-selected'), []);
  assert.deepEqual(buttonFor(self, 'select-for-compare'), [{ action: 'select-for-compare', label: 'Select for Compare' }]);
});

test("each role's row links its tries' transcripts, by role and try, never by path", () => {
  // The fixture's one step is the Programmer's.
  const one = iterationPage(details({ transcripts: [{ role: 'programmer', try: 1 }] }));
  assert.equal(one.steps[0].role, 'programmer');
  assert.deepEqual(
    one.steps[0].transcripts.map((t) => [t.try, t.label]),
    [[1, 'Transcript']],
  );
  assert.match(one.steps[0].transcripts[0].title, /^What the agent did in try 1: /);
  const two = iterationPage(
    details({
      transcripts: [
        { role: 'programmer', try: 1 },
        { role: 'programmer', try: 2 },
      ],
    }),
  );
  assert.deepEqual(
    two.steps[0].transcripts.map((t) => [t.try, t.label]),
    [
      [1, 'try 1'],
      [2, 'try 2'],
    ],
  );
  assert.deepEqual(iterationPage(details({ transcripts: [{ role: 'architect', try: 1 }] })).steps[0].transcripts, [], 'another role’s try is not this row’s');
  assert.deepEqual(iterationPage(details()).steps[0].transcripts, [], 'no calls record, no link');
});

/** A side of a comparison: `run` at `iteration` of `iterations`. */
function side(run: string, iteration: number, iterations: number[], hasRequirement: boolean): Comparison['left'] {
  return { run, iteration, label: revisionLabel(run, iteration), record: record({ run, iteration }), iterations, hasRequirement };
}

const compared = (left: Comparison['left'], right: Comparison['right']): Comparison => ({ left, right, onlyLeft: [], onlyRight: [], testsCompared: true });

test('a comparison with a human-history side offers no requirement.xml diff: the button is disabled and says why (issue 31, item 5a)', () => {
  const diff = (c: Comparison) => buttonFor(comparisonPage(c), 'open-requirement-diff');
  const [human] = diff(compared(side('human-history', 3, [0, 1, 2, 3], false), side('agent-1', 3, [0, 1, 2, 3], true)));
  assert.equal(human.label, 'requirement.xml ↔');
  assert.equal(human.disabled, true);
  assert.match(human.title ?? '', /^human-history #3 archived no requirement.xml/);
  // Two agent iterations with their requirements: enabled.
  const agents = diff(compared(side('agent-2', 2, [0, 1, 2], true), side('agent-1', 2, [0, 1, 2, 3], true)));
  assert.deepEqual(agents, [{ action: 'open-requirement-diff', label: 'requirement.xml ↔', title: 'Open the two requirement.xml side by side' }]);
  // The base has none either.
  const [base] = diff(compared(side('agent-2', 0, [0, 1], false), side('agent-1', 1, [0, 1], true)));
  assert.equal(base.disabled, true);
  assert.match(base.title ?? '', /^agent-2 base archived no requirement.xml/);
});

test('the compare view has Previous / Next, moving both sides, each disabled with the reason at either run’s end (issue 31, item 5b)', () => {
  const middle = comparisonPage(compared(side('human-history', 2, [0, 1, 2, 3], false), side('agent-1', 2, [0, 1, 2, 3], true))).header;
  assert.deepEqual(middle.previous, { action: 'step', label: '‹ Previous', arg: -1, title: 'Both sides one iteration back: human-history #1 ↔ agent-1 #1' });
  assert.deepEqual(middle.next, { action: 'step', label: 'Next ›', arg: 1, title: 'Both sides one iteration on: human-history #3 ↔ agent-1 #3' });
  // The right side is at its run's last iteration: Next is disabled and says which side stops it.
  const end = comparisonPage(compared(side('human-history', 2, [0, 1, 2, 3], false), side('agent-1', 2, [0, 1, 2], true))).header;
  assert.deepEqual(end.next, {
    action: 'step',
    label: 'Next ›',
    arg: 1,
    title: "agent-1 #2 is its run's last iteration: the comparison cannot move both sides.",
    disabled: true,
  });
  assert.notEqual(end.previous.disabled, true);
  const start = comparisonPage(compared(side('human-history', 0, [0, 1], false), side('agent-1', 1, [0, 1], true))).header;
  assert.equal(start.previous.disabled, true);
  assert.match(start.previous.title ?? '', /^human-history base is its run's first iteration/);
});

test('the test report opens as a table in the view (Test Report, or its row in Files); its raw JSON is beside it (issue 31, item 9)', () => {
  const p = iterationPage(
    details({
      files: [
        { label: 'pytest output', file: '/x/out.txt' },
        { label: 'test report', file: '/x/report.json', report: true },
      ],
    }),
  );
  assert.deepEqual(buttonFor(p, 'open-test-report'), [
    { action: 'open-test-report', label: 'Test Report', title: 'Each test’s outcome, duration and message, failures first' },
  ]);
  // The webview links the report's row to open-test-report, and its "(raw JSON)" to open-file 1.
  assert.deepEqual(p.files, [
    { label: 'pytest output', report: false },
    { label: 'test report', report: true },
  ]);
  assert.deepEqual(messageForAction('open-test-report', undefined), { type: 'open-test-report' });
  assert.deepEqual(messageForAction('open-raw-report', undefined), { type: 'open-raw-report' });
  // No report archived: no button.
  assert.deepEqual(buttonFor(iterationPage(details()), 'open-test-report'), []);
});
