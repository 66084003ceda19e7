// The iteration view's HTML and its messages: recorded text is escaped, clicks map to validated
// messages, and a message names what to open by index or node id, never by path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Comparison } from '../../../src/core/inspect/comparison';
import type { IterationDetails } from '../../../src/core/inspect/iteration-details';
import { stepIteration } from '../../../src/core/inspect/iteration-details';
import { revisionLabel } from '../../../src/core/inspect/revisions';
import { comparisonContent, iterationContent } from '../../../src/extension/inspect/iteration-html';
import { webviewPage, type WebviewResources } from '../../../src/extension/webview/webview-page';
import { ITERATION_VIEW_ACTIONS, isIterationViewMessage, messageForAction } from '../../../src/shared/iteration-protocol';
import type { IterationRecord } from '../../../src/core/loop/iteration-record';

const HOSTILE = '</pre><script>alert(1)</script><img src=x onerror=alert(2)>';

function record(over: Partial<IterationRecord> = {}): IterationRecord {
  return {
    gap: 3,
    pytest: { passed: 7 },
    iteration: 2,
    run: 'agent-1',
    started_at: '',
    finished_at: '',
    commit: 'abcdef1234567890',
    passed: 7,
    target_passed: 10,
    regressions: [],
    tampered: [],
    outside_changes: [],
    ...over,
  };
}

function details(over: Partial<IterationDetails> = {}): IterationDetails {
  return {
    run: 'agent-1',
    runKind: 'loop',
    iteration: 2,
    iterations: [0, 1, 2, 3],
    record: record(),
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
  };
}

const OPTS: WebviewResources = {
  cspSource: 'vscode-webview://x',
  nonce: 'N0NCE123456789abcdef',
  scriptUri: 'vscode-webview://x/dist/iteration-view.js',
  styleUri: 'vscode-webview://x/media/iteration-view.css',
};

/** The page the view sets: its content in the webviews' page. */
const iterationHtml = (d: IterationDetails, o: WebviewResources & { selectedForCompare?: string }) => webviewPage(o, iterationContent(d, o.selectedForCompare));
const comparisonHtml = (c: Comparison, o: WebviewResources) => webviewPage(o, comparisonContent(c));

test('recorded text is escaped: one script element (ours), no element an agent wrote', () => {
  const html = iterationHtml(details({ record: record({ note: HOSTILE, pytest_error: HOSTILE }) }), OPTS);
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(html, /<script nonce="N0NCE123456789abcdef" src="vscode-webview:\/\/x\/dist\/iteration-view.js"><\/script>/);
  assert.ok(!html.includes('<img'));
  assert.ok(html.includes('&lt;/pre&gt;&lt;script&gt;'));
  assert.match(html, /default-src 'none'/);
});

test('the view shows the scores, the newly passing and regressed tests as links, and the roles', () => {
  const html = iterationHtml(details(), { ...OPTS, selectedForCompare: 'human-history #2' });
  assert.match(html, /<dd>0\.50<\/dd>/);
  assert.match(html, /<dd>7 \/ 10<\/dd>/);
  assert.match(html, /data-action="open-test" data-arg="tests\/test_a.py::test_ok"/);
  assert.match(html, /Newly regressed \(1\)/);
  assert.match(html, /12\.3 s/);
  assert.match(html, /12k in \/ 800 out/);
  assert.match(html, /Compare with human-history #2/);
  assert.match(html, /data-action="open-file" data-arg="0"/);
  assert.match(html, /changed since #1/);
  // Why the first try did not count (escaped: the text is the CLI's), and what the agent could do.
  assert.match(html, /Failed tries: try 1: exited 0 but the model call failed: \[API Error: &lt;\/pre&gt;/);
  assert.match(html, /Allowed: every action accepted \(confined\)/);
  // What the step left in app/ besides the protocol's files, removed and named (issue 29).
  assert.match(
    html,
    /Removed from app\/ \(only code\/, requirement\.xml, non-passed\/ and memory\/ carry over to the next step\): app\/\.claude, app\/&lt;\/pre&gt;/,
  );
});

test('Previous is disabled at the first iteration and Next at the last', () => {
  const first = iterationHtml(details({ iteration: 0, iterations: [0, 1], hasCodeChanges: false, requirement: undefined, steps: [] }), OPTS);
  assert.match(first, /data-action="step" data-arg="-1" title="Previous iteration" disabled/);
  assert.doesNotMatch(first, /data-arg="1" title="Next iteration" disabled/);
  assert.doesNotMatch(first, /open-code-changes/, 'the base has no code changes');
  const last = iterationHtml(details({ iteration: 1, iterations: [0, 1] }), OPTS);
  assert.match(last, /data-arg="1" title="Next iteration" disabled/);
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
  const html = comparisonHtml(c, OPTS);
  assert.match(html, /Pass in human-history #5 only \(2\)/);
  assert.match(html, /Pass in agent-1 #5 only \(0\)/);
  assert.match(html, /pytest did not run/);
  assert.equal(html.match(/<script/g)?.length, 1);
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
  assert.deepEqual(messageForAction('open-transcript', 'programmer:2'), { type: 'open-transcript', role: 'programmer', attempt: 2 });
  assert.equal(messageForAction('open-transcript', 'reviewer:1'), undefined);
  assert.equal(messageForAction('open-transcript', 'architect:0'), undefined);
  for (const a of ITERATION_VIEW_ACTIONS)
    assert.ok(isIterationViewMessage(messageForAction(a, a === 'step' ? '1' : a === 'open-file' ? '0' : a === 'open-transcript' ? 'architect:1' : 'x')), a);
  assert.equal(isIterationViewMessage({ type: 'open-file', index: 1.5 }), false);
  assert.equal(isIterationViewMessage(null), false);
  assert.equal(isIterationViewMessage([]), false);
  assert.equal(isIterationViewMessage({ type: 'open-test', nodeid: 't::x', path: '/etc/passwd' }), false, 'a field the protocol does not have');
  assert.equal(isIterationViewMessage({ type: 'toString' }), false, 'no inherited key is a message type');
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
  const body = iterationHtml(d, OPTS);
  assert.match(
    body,
    /Model: 5 model calls through the gateway \(tokens as the wire reported them, 1(\.0)?k cached\), cost unknown \(no price: sweci\.agents\.prices\); the agent reported 8(\.0)?k in \/ 166 out; no network but its model/,
  );
});

test('the iteration selected for Compare is not offered for comparing with itself (issue 31, item 5)', () => {
  const d = details();
  assert.match(iterationHtml(d, { ...OPTS, selectedForCompare: 'human-history #2' }), /Compare with human-history #2/);
  const self = iterationHtml(d, { ...OPTS, selectedForCompare: revisionLabel(d.run, d.iteration) });
  assert.doesNotMatch(self, /data-action="compare-with-selected"/);
  assert.match(self, /Select for Compare/);
});

test("each role's row links its tries' transcripts, by role and try, never by path", () => {
  // The fixture's one step is the Programmer's.
  const one = iterationHtml(details({ transcripts: [{ role: 'programmer', attempt: 1 }] }), OPTS);
  assert.match(one, /data-action="open-transcript" data-arg="programmer:1"[^>]*>Transcript</);
  const two = iterationHtml(
    details({
      transcripts: [
        { role: 'programmer', attempt: 1 },
        { role: 'programmer', attempt: 2 },
      ],
    }),
    OPTS,
  );
  assert.match(two, /data-arg="programmer:1"[^>]*>try 1</);
  assert.match(two, /data-arg="programmer:2"[^>]*>try 2</);
  assert.doesNotMatch(iterationHtml(details(), OPTS), /open-transcript/, 'no calls record, no link');
});

/** A side of a comparison: `run` at `iteration` of `iterations`. */
function side(run: string, iteration: number, iterations: number[], hasRequirement: boolean): Comparison['left'] {
  return { run, iteration, label: revisionLabel(run, iteration), record: record({ run, iteration }), iterations, hasRequirement };
}

const compared = (left: Comparison['left'], right: Comparison['right']): Comparison => ({ left, right, onlyLeft: [], onlyRight: [], testsCompared: true });

test('a comparison with a human-history side offers no requirement.xml diff: the button is disabled and says why (issue 31, item 5a)', () => {
  const html = comparisonHtml(compared(side('human-history', 3, [0, 1, 2, 3], false), side('agent-1', 3, [0, 1, 2, 3], true)), OPTS);
  assert.match(
    html,
    /<button data-action="open-requirement-diff" title="human-history #3 archived no requirement.xml[^"]*" disabled>requirement.xml ↔<\/button>/,
  );
  // Two agent iterations with their requirements: enabled.
  const agents = comparisonHtml(compared(side('agent-2', 2, [0, 1, 2], true), side('agent-1', 2, [0, 1, 2, 3], true)), OPTS);
  assert.match(agents, /<button data-action="open-requirement-diff" title="Open the two requirement.xml side by side">/);
  // The base has none either.
  assert.match(
    comparisonHtml(compared(side('agent-2', 0, [0, 1], false), side('agent-1', 1, [0, 1], true)), OPTS),
    /agent-2 base archived no requirement.xml[^"]*" disabled/,
  );
});

test('the compare view has Previous / Next, moving both sides, each disabled with the reason at either run’s end (issue 31, item 5b)', () => {
  const middle = comparisonHtml(compared(side('human-history', 2, [0, 1, 2, 3], false), side('agent-1', 2, [0, 1, 2, 3], true)), OPTS);
  assert.match(middle, /<button data-action="step" data-arg="-1" title="Both sides one iteration back: human-history #1 ↔ agent-1 #1">‹ Previous<\/button>/);
  assert.match(middle, /<button data-action="step" data-arg="1" title="Both sides one iteration on: human-history #3 ↔ agent-1 #3">Next ›<\/button>/);
  // The right side is at its run's last iteration: Next is disabled and says which side stops it.
  const end = comparisonHtml(compared(side('human-history', 2, [0, 1, 2, 3], false), side('agent-1', 2, [0, 1, 2], true)), OPTS);
  assert.match(end, /data-action="step" data-arg="1" title="agent-1 #2 is its run's last iteration: the comparison cannot move both sides." disabled>Next ›/);
  assert.doesNotMatch(end, /data-arg="-1"[^>]*disabled/);
  const start = comparisonHtml(compared(side('human-history', 0, [0, 1], false), side('agent-1', 1, [0, 1], true)), OPTS);
  assert.match(start, /data-action="step" data-arg="-1" title="human-history base is its run's first iteration[^"]*" disabled>‹ Previous/);
});

test('the test report opens as a table in the view (Test Report, or its row in Files); its raw JSON is beside it (issue 31, item 9)', () => {
  const html = iterationHtml(
    details({
      files: [
        { label: 'pytest output', file: '/x/out.txt' },
        { label: 'test report', file: '/x/report.json', report: true },
      ],
    }),
    OPTS,
  );
  assert.match(html, /<button data-action="open-test-report"[^>]*>Test Report<\/button>/);
  assert.match(
    html,
    /<li><a href="#" data-action="open-test-report">test report<\/a> <a href="#" class="muted" data-action="open-file" data-arg="1">\(raw JSON\)<\/a><\/li>/,
  );
  assert.deepEqual(messageForAction('open-test-report', undefined), { type: 'open-test-report' });
  assert.deepEqual(messageForAction('open-raw-report', undefined), { type: 'open-raw-report' });
  // No report archived: no button.
  assert.doesNotMatch(iterationHtml(details(), OPTS), /open-test-report/);
});
