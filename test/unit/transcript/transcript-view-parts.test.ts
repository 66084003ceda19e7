// The Transcript panel's pure parts: its figures, the timeline's geometry, and which tool result
// answers which tool call.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Transcript, TranscriptCall } from '../../../src/shared/transcript-schema';
import { timelineLayout, callMeasure, defaultMeasure } from '../../../webview-ui/timeline-layout';
import { argsLine, callFigures, formatMs, formatUsd, runningTotals, shortPath, totalText } from '../../../webview-ui/transcript-format';
import { callSearchText, matchingCalls, pairToolResults, promptParts } from '../../../webview-ui/transcript-model';

const usage = (input: number, output: number, cached = 0) => ({ input, output, cached, reasoning: 0 });

function call(n: number, over: Partial<TranscriptCall> = {}): TranscriptCall {
  return { call: n, input: [], output: [], toolCalls: [], ...over };
}

function transcript(calls: TranscriptCall[]): Transcript {
  return {
    source: 'gateway',
    role: 'programmer',
    iteration: 1,
    try: 1,
    tools: [],
    calls,
    totals: { calls: calls.length, usage: usage(0, 0), ms: 0 },
    notes: [],
  };
}

test('times, costs and tokens read as a person writes them', () => {
  assert.equal(formatMs(850), '850 ms');
  assert.equal(formatMs(2345), '2.3 s');
  assert.equal(formatMs(125_000), '2 min 5 s');
  assert.equal(formatUsd(0), '$0');
  assert.equal(formatUsd(0.00412), '$0.0041');
  assert.equal(formatUsd(0.123), '$0.123');
  assert.equal(formatUsd(12.5), '$12.50');
  assert.deepEqual(callFigures(call(1, { usage: usage(12_480, 310, 4096), ms: 2300, costUsd: 0.0123 })), [
    '12k in (4096 cached)',
    '310 out',
    '2.3 s',
    '$0.012',
  ]);
  assert.deepEqual(callFigures(call(1)), [], 'a call with no figures says none');
  assert.equal(shortPath('/tmp/sweci-x/app/code/src/a.py'), 'app/code/src/a.py');
  assert.equal(shortPath('src/a.py'), 'src/a.py');
});

test('the running total adds each call; the cost is unknown until a call has a price', () => {
  const totals = runningTotals([
    call(1, { usage: usage(100, 10), ms: 5 }),
    call(2, { usage: usage(200, 20), costUsd: 0.5, ms: 7 }),
    call(3, { costUsd: 0.25 }),
  ]);
  assert.deepEqual(totals, [
    { tokens: 110, ms: 5 },
    { tokens: 330, costUsd: 0.5, ms: 12 },
    { tokens: 330, costUsd: 0.75, ms: 12 },
  ]);
  assert.equal(totalText(totals[1]), 'total 330 tokens · $0.500');
});

test('timeline bars are proportional to the measure, fill the strip, and none is thinner than the minimum', () => {
  const l = timelineLayout([100, 300, 0, 600], 400, { minWidth: 4, gap: 0 });
  assert.equal(l.width, 400);
  assert.equal(l.bars[2].width, 4, 'a call with no time still gets a bar');
  assert.ok(Math.abs(l.bars[1].width / l.bars[0].width - 3) < 1e-9, 'widths in proportion');
  const sum = l.bars.reduce((s, b) => s + b.width, 0);
  assert.ok(Math.abs(sum - 400) < 1e-9, 'the bars fill the strip');
  for (let i = 1; i < l.bars.length; i++) assert.ok(Math.abs(l.bars[i].x - (l.bars[i - 1].x + l.bars[i - 1].width)) < 1e-9, 'bars in order, side by side');
});

test('the timeline gives equal bars when nothing is measured, and scrolls when 500 bars cannot fit', () => {
  const equal = timelineLayout([0, 0, 0], 301, { minWidth: 3, gap: 1 });
  assert.deepEqual(
    equal.bars.map((b) => Math.round(b.width)),
    [100, 100, 100],
  );
  const many = timelineLayout(
    Array.from({ length: 500 }, (_, i) => i),
    1000,
    { minWidth: 3, gap: 1 },
  );
  assert.equal(many.bars.length, 500);
  assert.equal(many.width, 500 * 3 + 499);
  assert.ok(many.bars.every((b) => b.width === 3));
  // One huge call among tiny ones: the tiny ones keep the minimum, the big one takes the rest.
  const skew = timelineLayout([1, 1, 1, 1_000_000], 100, { minWidth: 5, gap: 0 });
  assert.deepEqual(
    skew.bars.map((b) => Math.round(b.width)),
    [5, 5, 5, 85],
  );
  assert.deepEqual(timelineLayout([], 100), { bars: [], width: 0 });
});

test('bars measure time when the calls have it, else tokens', () => {
  const timed = [call(1, { ms: 10, usage: usage(5, 5) })];
  assert.equal(defaultMeasure(timed), 'ms');
  assert.equal(callMeasure(timed[0], 'tokens'), 10);
  assert.equal(defaultMeasure([call(1, { usage: usage(5, 5) })]), 'tokens');
  assert.equal(callMeasure(call(1, { ms: Number.NaN }), 'ms'), 0);
});

test('a tool result is paired with its call by id, across calls, and shown only there', () => {
  const t = transcript([
    call(1, {
      input: [{ kind: 'text', role: 'user', text: 'Fix the bug' }],
      output: [
        { kind: 'tool-call', id: 'a', name: 'Bash', input: { command: 'ls' } },
        { kind: 'tool-call', id: 'b', name: 'Write', input: {} },
      ],
      toolCalls: [
        { id: 'a', name: 'Bash', input: { command: 'ls' } },
        { id: 'b', name: 'Write', input: {} },
      ],
    }),
    call(2, {
      input: [
        { kind: 'tool-result', id: 'b', output: 'written' },
        { kind: 'tool-result', id: 'a', output: 'src\ntests' },
        { kind: 'tool-result', id: 'zzz', output: 'an orphan' },
      ],
    }),
  ]);
  const p = pairToolResults(t);
  assert.equal(p.results.get('1:0')?.output, 'src\ntests');
  assert.equal(p.results.get('1:1')?.output, 'written');
  assert.deepEqual([...p.shown].sort(), ['2:0', '2:1'], 'the orphan result stays to be shown on its own');
  assert.equal(promptParts(t).prompt, 'Fix the bug');
});

test('without ids, results pair in order by name, and never with an earlier call', () => {
  const t = transcript([
    call(1, {
      input: [{ kind: 'tool-result', name: 'shell', output: 'stale' }],
      toolCalls: [
        { name: 'shell', input: {} },
        { name: 'shell', input: {} },
      ],
    }),
    call(2, {
      input: [
        { kind: 'tool-result', name: 'shell', output: 'first' },
        { kind: 'tool-result', name: 'shell', output: 'second' },
      ],
    }),
  ]);
  const p = pairToolResults(t);
  assert.equal(p.results.get('1:0')?.output, 'first');
  assert.equal(p.results.get('1:1')?.output, 'second');
});

test('search finds calls by any text they hold, case-insensitively', () => {
  const calls = [
    call(1, { output: [{ kind: 'text', role: 'assistant', text: 'Reading the Summary' }] }),
    call(2, { output: [{ kind: 'tool-call', name: 'Bash', input: { command: 'pytest -q' } }] }),
    call(3, { error: 'HTTP 529 overloaded' }),
  ];
  const texts = calls.map(callSearchText);
  assert.deepEqual(matchingCalls(texts, 'summary'), [0]);
  assert.deepEqual(matchingCalls(texts, 'PYTEST'), [1]);
  assert.deepEqual(matchingCalls(texts, 'overloaded'), [2]);
  assert.deepEqual(matchingCalls(texts, '  '), [0, 1, 2], 'an empty query matches all');
});

test("a read's or a search's few arguments are one line, its path first and from app/ on; anything longer or nested is not", () => {
  assert.equal(argsLine({ file_path: '/tmp/sweci-x/app/code/CHANGELOG.md' }), 'app/code/CHANGELOG.md');
  assert.equal(argsLine({ limit: 20, file_path: '/tmp/sweci-x/app/code/a.py', offset: 40 }), 'app/code/a.py · limit 20 · offset 40');
  assert.equal(argsLine({ pattern: 'def low_stock', path: '/w/app/code' }), 'app/code · pattern def low_stock');
  assert.equal(argsLine({ command: 'a\nb' }), undefined, 'a multi-line argument');
  assert.equal(argsLine({ todos: [{ content: 'x' }] }), undefined, 'a nested argument');
  assert.equal(argsLine({ q: 'x'.repeat(300) }), undefined, 'a long line');
  assert.equal(argsLine({}), undefined);
  assert.equal(argsLine('text'), undefined);
});

test("the system reminders a CLI wraps around the prompt are set apart: the prompt is the harness's", () => {
  const reminder = '<system-reminder>\nAvailable agent types:\n- claude\n</system-reminder>';
  const t = transcript([
    call(1, {
      input: [
        { kind: 'text', role: 'user', text: reminder },
        { kind: 'text', role: 'user', text: '# Role: Architect\n\nWrite requirement.xml\n<system-reminder>today</system-reminder>' },
      ],
    }),
  ]);
  assert.deepEqual(promptParts(t), { prompt: '# Role: Architect\n\nWrite requirement.xml', reminders: [reminder, '<system-reminder>today</system-reminder>'] });
  assert.equal(promptParts(t).prompt, '# Role: Architect\n\nWrite requirement.xml');
  assert.deepEqual(promptParts(transcript([call(1, { input: [{ kind: 'text', role: 'user', text: reminder }] })])), { reminders: [reminder] });
  assert.deepEqual(promptParts(transcript([])), { reminders: [] });
});
