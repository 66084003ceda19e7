// transcriptFromCalls on recorded calls in each wire protocol's own format: what each call added,
// what the model answered, side calls, rewritten histories, cut records, failures and totals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GatewayCall } from '../../../src/core/records/gateway-call';
import { transcriptFromCalls } from './transcript-from-calls';
import { transcriptSchema } from '../../../src/shared/transcript-schema';
import { CLI_TOOLS, ENCODE, PROMPT, PROTOCOLS, REQUIREMENT, SYSTEM, architectTry, modelCall, type Turn } from './wire-fixture';

const META = { role: 'architect' as const, iteration: 1, try: 1, run: 'r', agent: 'claude-code' };

describe('transcriptFromCalls', () => {
  for (const protocol of PROTOCOLS) {
    test(`${protocol}: the prompt, each answer with its tool calls, the results each next call added, and a side call`, () => {
      const kit = CLI_TOOLS[protocol];
      const { calls, answers } = architectTry(protocol);
      // Lines are written as calls end: not in the order they began.
      const t = transcriptFromCalls([calls[2], calls[0], calls[3], calls[1]], META);
      assert.ok(transcriptSchema.safeParse(t).success, 'the transcript has the shared shape');
      assert.equal(t.source, 'gateway');
      assert.equal(t.system, SYSTEM);
      assert.deepEqual(
        t.tools.map((x) => x.name),
        [kit.shell, kit.write, 'read_thing'],
      );
      assert.deepEqual(
        t.calls.map((c) => c.call),
        [1, 2, 3, 4],
      );
      assert.deepEqual(
        t.calls.map((c) => c.side === true),
        [false, true, false, false],
        'the title call is a side call',
      );

      const [first, side, second, third] = t.calls;
      assert.deepEqual(first.input, [{ kind: 'text', role: 'user', text: PROMPT }], 'the first call added the prompt');
      const shellInput = kit.shellArgs("cat '/task/app/non-passed/summary.jsonl'");
      assert.deepEqual(first.toolCalls, [{ id: 'call_1', name: kit.shell, input: shellInput }], 'arguments parsed from JSON');
      // Its reasoning is not in the record's answer: it comes from the history the next call repeats.
      assert.deepEqual(first.output, [
        { kind: 'reasoning', text: answers[0].reasoning },
        { kind: 'text', role: 'assistant', text: 'I will read the summary first.' },
        { kind: 'tool-call', id: 'call_1', name: kit.shell, input: shellInput },
      ]);
      assert.deepEqual(side.input, [
        { kind: 'text', role: 'system', text: 'Write a short title.' },
        { kind: 'text', role: 'user', text: `Title for: ${PROMPT}` },
      ]);
      assert.deepEqual(side.output, [{ kind: 'text', role: 'assistant', text: 'Reading the summary' }]);

      // The second call added the shell's output (named by the call it answers), nothing else.
      assert.equal(second.input.length, 1, JSON.stringify(second.input));
      const result = second.input[0];
      assert.equal(result.kind, 'tool-result');
      assert.equal(result.kind === 'tool-result' && result.output, '{"nodeid": "tests/test_inventory.py::test_low"}\n3 failed');
      assert.equal(result.kind === 'tool-result' && result.name, kit.shell);
      const writeArgs = kit.writeArgs('/task/app/requirement.xml', REQUIREMENT);
      assert.deepEqual(second.toolCalls, [{ id: 'call_2', name: kit.write, input: writeArgs }], 'a custom tool keeps its text');
      assert.deepEqual(second.output[0], { kind: 'reasoning', text: 'Two tests fail on low_stock.' });
      assert.deepEqual(
        third.input.map((i) => i.kind === 'tool-result' && i.output),
        ['File written.'],
      );
      assert.deepEqual(third.output, [{ kind: 'text', role: 'assistant', text: 'requirement.xml is written.' }]);
      assert.equal(third.stopReason, 'end_turn');
      assert.deepEqual(third.usage, { input: 4000, output: 54, cached: 300, reasoning: 0 });

      assert.deepEqual(t.totals.usage, { input: 1000 + 40 + 3000 + 4000, output: 51 + 4 + 53 + 54, cached: 0 + 0 + 200 + 300, reasoning: 0 });
      assert.equal(t.totals.calls, 4);
      assert.equal(t.totals.ms, 100 + 200 + 300 + 400);
      assert.ok(Math.abs((t.totals.costUsd ?? 0) - 0.01) < 1e-9, `every call priced: the sum (${t.totals.costUsd})`);
      assert.deepEqual(t.notes, []);
    });
  }

  test('gemini: a check that repeats the history but offers no tools (next-speaker) is a side call; the agent goes on after it', () => {
    const { calls } = architectTry('gemini');
    const main = calls[2].request as { contents: unknown[]; systemInstruction: unknown };
    const check = modelCall(
      'gemini',
      5,
      { contents: [...main.contents, { role: 'user', parts: [{ text: 'Who speaks next?' }] }], systemInstruction: main.systemInstruction },
      { text: '{"next_speaker":"model"}' },
    );
    const t = transcriptFromCalls([calls[0], calls[2], check, { ...calls[3], call: 6 }], META);
    assert.deepEqual(
      t.calls.map((c) => [c.call, c.side === true]),
      [
        [1, false],
        [3, false],
        [5, true],
        [6, false],
      ],
    );
    assert.deepEqual(
      t.calls[3].input.map((i) => i.kind === 'tool-result' && i.output),
      ['File written.'],
      'the agent’s next call added only its result',
    );
  });

  test('a sub-agent’s conversation (tools, a prompt of its own) is side, and its second call shows only what it added', () => {
    const { calls } = architectTry('anthropic-messages');
    const tools = [{ name: 'Bash', description: 'shell' }];
    const turns: Turn[] = [{ role: 'user', text: 'Find the failing tests.' }];
    const sub1 = modelCall('anthropic-messages', 2, ENCODE['anthropic-messages']({ system: 'You are a search agent.', tools, turns }), {
      calls: [{ id: 's1', name: 'Bash', args: { command: 'ls tests' } }],
    });
    turns.push(
      { role: 'assistant', calls: [{ id: 's1', name: 'Bash', args: { command: 'ls tests' } }] },
      { role: 'tool', results: [{ id: 's1', name: 'Bash', output: 'test_a.py' }] },
    );
    const sub2 = modelCall('anthropic-messages', 4, ENCODE['anthropic-messages']({ system: 'You are a search agent.', tools, turns }), { text: 'test_a.py' });
    const t = transcriptFromCalls([calls[0], sub1, calls[2], sub2, { ...calls[3], call: 5 }], META);
    assert.deepEqual(
      t.calls.map((c) => [c.call, c.side === true]),
      [
        [1, false],
        [2, true],
        [3, false],
        [4, true],
        [5, false],
      ],
    );
    assert.deepEqual(t.calls[3].input, [{ kind: 'tool-result', id: 's1', name: 'Bash', output: 'test_a.py' }]);
    assert.equal(t.calls[2].input.length, 1, 'the agent’s call after the sub-agent’s added its one result');
  });

  test('a history rewritten (compacted) by the agent is shown whole, with a note, and is not a side call', () => {
    const { calls } = architectTry('openai-responses');
    const tools = (calls[0].request as { tools: unknown[] }).tools;
    const compacted = {
      ...(calls[0].request as object),
      tools,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary so far: the summary was read.' }] }],
    };
    const t = transcriptFromCalls([calls[0], calls[2], modelCall('openai-responses', 7, compacted, { text: 'ok' })], META);
    const last = t.calls[2];
    assert.equal(last.side, undefined);
    assert.deepEqual(last.input, [{ kind: 'text', role: 'user', text: 'Summary so far: the summary was read.' }]);
    assert.match(t.notes.join('\n'), /call 7 starts the agent's conversation anew/);
  });

  test('previous_response_id: the input holds only what is new, and all of it is what the call added', () => {
    const first = modelCall(
      'openai-responses',
      1,
      { model: 'm', instructions: 'sys', tools: [{ type: 'function', name: 'shell' }], input: 'hello' },
      { calls: [{ id: 'c1', name: 'shell', args: { command: ['ls'] } }] },
    );
    const next = modelCall(
      'openai-responses',
      2,
      {
        model: 'm',
        instructions: 'sys',
        tools: [{ type: 'function', name: 'shell' }],
        previous_response_id: 'resp_1',
        input: [{ type: 'function_call_output', call_id: 'c1', output: 'a.txt' }],
      },
      { text: 'done' },
    );
    const t = transcriptFromCalls([first, next], META);
    assert.deepEqual(t.calls[0].input, [{ kind: 'text', role: 'user', text: 'hello' }]);
    assert.deepEqual(t.calls[1].input, [{ kind: 'tool-result', id: 'c1', name: 'shell', output: 'a.txt' }]);
    assert.equal(t.calls[1].side, undefined);
  });

  test('a record cut over the cap: its request is gone and its tool arguments dropped; the next call’s history gives them back', () => {
    const { calls } = architectTry('anthropic-messages');
    const cut: GatewayCall = {
      ...calls[2],
      request: undefined,
      response: { ...calls[2].response!, text: '', toolCalls: calls[2].response!.toolCalls.map((x) => ({ ...x, arguments: '' })) },
      truncated: 'the record was over 4194304 bytes: the raw answer, the request dropped; this call cannot be replayed',
    };
    const t = transcriptFromCalls([calls[0], cut, calls[3]], META);
    assert.equal(t.calls[1].truncated, cut.truncated);
    assert.deepEqual(t.calls[1].input, [], 'what it added is unknown');
    assert.deepEqual(t.calls[1].toolCalls, [{ id: 'call_2', name: 'Write', input: { file_path: '/task/app/requirement.xml', content: REQUIREMENT } }]);
    // The call after it continues the first: its input has both results.
    assert.equal(t.calls[2].input.filter((i) => i.kind === 'tool-result').length, 2);
    assert.match(t.notes.join('\n'), /call 3: the record was over 4194304 bytes/);
  });

  test('failed and refused calls are noted; other requests are counted; one unpriced call makes the cost unknown', () => {
    const { calls } = architectTry('chat-completions');
    const failed: GatewayCall = { ...calls[2], call: 3, status: 500, response: undefined, error: 'the model is down', costUsd: undefined };
    const refused: GatewayCall = { ...calls[3], call: 4, status: 0, response: undefined, refused: 'the try spent its 3 calls' };
    const list: GatewayCall[] = [
      calls[0],
      { ...calls[1], call: 2, kind: 'other', method: 'GET', path: '/v1/models', request: undefined, response: undefined },
      failed,
      refused,
    ];
    const t = transcriptFromCalls(list, META);
    assert.deepEqual(
      t.calls.map((c) => c.call),
      [1, 3, 4],
      'only model calls are turns',
    );
    assert.equal(t.totals.calls, 3);
    assert.equal(t.totals.costUsd, undefined, 'one call had no price: the cost is unknown, not a partial sum');
    assert.deepEqual(t.calls[1].output, []);
    assert.equal(t.calls[1].error, 'the model is down');
    const notes = t.notes.join('\n');
    assert.match(notes, /call 3 failed \(HTTP 500\): the model is down/);
    assert.match(notes, /call 4 was refused by the gateway: the try spent its 3 calls/);
    assert.match(notes, /1 other request \(model lists, token counts\) not shown/);
  });

  test('a tool result over the cap is cut, and says so; content blocks other than text are named', () => {
    const RESULT_CAP = 64 * 1024; // the transcript keeps 64 KiB of a tool's result
    const big = 'x'.repeat(RESULT_CAP + 10);
    const request = {
      model: 'm',
      system: 's',
      tools: [{ name: 'Bash' }],
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'yes' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: big, is_error: true },
            {
              type: 'tool_result',
              tool_use_id: 't2',
              content: [
                { type: 'text', text: 'a' },
                { type: 'image', source: {} },
              ],
            },
          ],
        },
      ],
    };
    const t = transcriptFromCalls([modelCall('anthropic-messages', 1, request, { text: 'ok' })], META);
    const [cut, image] = t.calls[0].input.filter((i) => i.kind === 'tool-result');
    assert.equal(cut.kind === 'tool-result' && cut.isError, true);
    assert.equal(cut.kind === 'tool-result' && cut.output, `${'x'.repeat(RESULT_CAP)}\n… (cut: 10 more characters)`);
    assert.equal(image.kind === 'tool-result' && image.output, 'a\n[image]');
  });

  test('a client with no tools at all (one call per prompt): its calls are the main conversation', () => {
    const one = modelCall('chat-completions', 1, { model: 'm', messages: [{ role: 'user', content: PROMPT }] }, { text: '<requirements/>' });
    const t = transcriptFromCalls([one], META);
    assert.equal(t.calls[0].side, undefined);
    assert.equal(t.system, undefined);
    assert.deepEqual(t.tools, []);
    assert.deepEqual(t.calls[0].input, [{ kind: 'text', role: 'user', text: PROMPT }]);
  });
});
