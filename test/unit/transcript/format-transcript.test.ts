// formatTranscript: what a person reads in a terminal (text) or a note (markdown), and the json
// scripts read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { transcriptFromCalls } from './transcript-from-calls';
import { clip, formatTranscript } from '../../../src/core/transcript/format-transcript';
import { transcriptSchema, type Transcript } from '../../../src/shared/transcript-schema';
import { PROMPT, architectTry, modelCall } from './wire-fixture';

const META = { role: 'architect' as const, iteration: 1, try: 2, run: 'r', agent: 'claude-code' };

/** The Architect's try, and one more call: an edit, an unknown tool, after a long tool result. */
function sample(): Transcript {
  const { calls } = architectTry('anthropic-messages');
  const longOutput = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
  const before = calls[3].request as { messages: unknown[] };
  const request = {
    ...before,
    messages: [
      ...before.messages,
      { role: 'assistant', content: [{ type: 'text', text: 'requirement.xml is written.' }] },
      { role: 'user', content: 'Now count to 100.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't9', name: 'Bash', input: { command: 'seq 100' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't9', content: longOutput }] },
    ],
  };
  const edit = modelCall('anthropic-messages', 5, request, {
    calls: [
      { id: 'e1', name: 'Edit', args: { file_path: '/task/app/code/inv.py', old_string: 'return x < t\n', new_string: 'return x <= t\n' } },
      { id: 'u1', name: 'TodoWrite', args: { todos: [{ content: 'fix low_stock' }] } },
    ],
  });
  return transcriptFromCalls([...calls, edit], META);
}

describe('formatTranscript', () => {
  test('text: a heading per call with model, tokens, time and cost; the prompt, results, answers and tool calls; a total', () => {
    const text = formatTranscript(sample(), 'text');
    assert.match(text, /^architect · iteration 1 · try 2\nrun r · agent claude-code · from the gateway's record\n/);
    assert.match(text, /system prompt: \d+ characters · 3 tools: Bash, Write, read_thing/);
    assert.match(text, /── call 1 · claude-sonnet-4-5 · 1,000 in \/ 51 out · 100 ms · \$0\.0010\n/);
    assert.match(text, /── call 2 · side call · claude-sonnet-4-5 · 40 in \/ 4 out · 200 ms/);
    assert.match(text, /── call 3 · claude-sonnet-4-5 · 3,000 in \(200 cached\) \/ 53 out · 300 ms · \$0\.0030/);
    assert.ok(
      text.includes(
        `  user:\n${PROMPT.split('\n')
          .map((l) => (l ? `    ${l}` : ''))
          .join('\n')}\n`,
      ),
      text,
    );
    assert.match(text, / {2}reasoning:\n {4}The summary lists the failing tests\.\n/);
    assert.match(text, / {2}Bash:\n {4}\$ cat '\/task\/app\/non-passed\/summary\.jsonl'\n/);
    assert.match(text, / {2}result of Bash \(2 lines\):\n {4}\{"nodeid": "tests\/test_inventory\.py::test_low"\}\n {4}3 failed\n/);
    assert.match(text, / {2}Write \(3 lines\) \/task\/app\/requirement\.xml:\n {4}<requirements>\n {6}<requirement id="1"\/>\n {4}<\/requirements>\n/);
    assert.match(text, / {2}Edit \/task\/app\/code\/inv\.py:\n {4}-return x < t\n {4}\+return x <= t\n/);
    assert.match(text, / {2}TodoWrite:\n {4}\{\n {5}"todos": \[/);
    // A long result: its first 40 lines, and how many more there were.
    assert.match(text, / {2}result of Bash \(100 lines\):\n( {4}line \d+\n){40} {4}… \(60 more lines\)\n/);
    assert.match(text, / {2}assistant:\n {4}requirement\.xml is written\.\n/);
    assert.match(text, /\ntotal: 5 calls \(1 side\) · 13,040 in \(900 cached\) \/ \d+ out · 1\.5 s · \$0\.0150\n$/);
  });

  test('markdown: headings, fenced blocks (a fence longer than any backticks inside), a diff for edits', () => {
    const t = sample();
    t.calls[0].input = [{ kind: 'text', role: 'user', text: 'Use ```code``` blocks.' }];
    const md = formatTranscript(t, 'markdown');
    assert.match(md, /^# Transcript: architect · iteration 1 · try 2\n\n- run r · agent claude-code/);
    assert.match(md, /\n## Call 1 · claude-sonnet-4-5 · 1,000 in \/ 51 out · 100 ms · \$0\.0010\n/);
    assert.match(md, /\*\*user\*\*\n\n````\nUse ```code``` blocks\.\n````\n/);
    assert.match(md, /\*\*Bash\*\*\n\n```sh\n\$ cat '\/task\/app\/non-passed\/summary\.jsonl'\n```\n/);
    assert.match(md, /\*\*Write \(3 lines\)\*\* `\/task\/app\/requirement\.xml`\n/);
    assert.match(md, /\*\*Edit\*\* `\/task\/app\/code\/inv\.py`\n\n```diff\n-return x < t\n\+return x <= t\n```\n/);
    assert.match(md, /\n\*\*Total: 5 calls \(1 side\) · 13,040 in/);
  });

  test('json: the transcript itself, in the shared shape', () => {
    const t = sample();
    const parsed = transcriptSchema.parse(JSON.parse(formatTranscript(t, 'json')));
    assert.deepEqual(parsed, JSON.parse(JSON.stringify(t)));
  });

  test('failures, cut records, notes and an unknown cost are said', () => {
    const t = sample();
    t.calls[2] = { ...t.calls[2], error: 'the model is down', status: 500, output: [], toolCalls: [], costUsd: undefined };
    t.calls[3] = { ...t.calls[3], truncated: 'the request dropped', retries: 2, replayed: true };
    t.totals = { ...t.totals, costUsd: undefined };
    t.notes = ['call 3 failed (HTTP 500): the model is down'];
    const text = formatTranscript(t, 'text');
    assert.match(text, /\nnote: call 3 failed \(HTTP 500\): the model is down\n/);
    assert.match(text, /── call 3 · claude-sonnet-4-5 · 3,000 in \(200 cached\) \/ 53 out · 300 ms · HTTP 500\n {2}failed: the model is down\n/);
    assert.match(text, /── call 4 · .* · 2 retries · replayed\n {2}record cut: the request dropped\n/);
    assert.match(text, /· cost unknown\n$/);
  });

  test('clip: lines beyond the limit and one-line floods are left out and counted', () => {
    assert.equal(clip('a\nb\nc\n', 2), 'a\nb\n… (1 more line)');
    assert.equal(clip('x'.repeat(450), 5), `${'x'.repeat(400)}… (50 more characters)`);
  });
});
