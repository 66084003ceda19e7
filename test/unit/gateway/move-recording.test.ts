import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveRecording } from '../../../src/core/gateway/move-recording';
import type { RecordedCall } from '../../../src/core/gateway/replay-answer';

const FROM = '/tmp/exp-a/task-1/';
const TO = '/srv/other-experiment/task-1/';

/** A Chat Completions stream whose tool call arguments arrive in these pieces. */
function stream(pieces: string[]): string {
  const chunk = (delta: unknown) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}`;
  const events = [
    chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '' } }] }),
    ...pieces.map((p) => chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] })),
    'data: [DONE]',
  ];
  return `${events.join('\n\n')}\n\n`;
}

/** The answer's body as moveRecording moves it in a recorded call. */
function moveInBody(body: string, contentType: string, from: string, to: string): string {
  const recorded = { call: 1, protocol: 'chat-completions', kind: 'model', method: 'POST', path: '/v1/chat/completions', stream: true, status: 200 };
  const [moved] = moveRecording([{ ...recorded, raw: { status: 200, contentType, body, encoding: 'utf8' } } as RecordedCall], from, to);
  return moved.raw!.body;
}

function argumentsOf(body: string): string {
  return body
    .split('\n\n')
    .filter((e) => e.startsWith('data: {'))
    .map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { tool_calls?: { function: { arguments: string } }[] } }[] })
    .map((e) => e.choices[0].delta.tool_calls?.[0].function.arguments ?? '')
    .join('');
}

test('a path cut between two stream events is moved whole, into the piece where it starts; other events keep their bytes', () => {
  const args = JSON.stringify({ file_path: `${FROM}app/requirement.xml`, content: `see ${FROM}app/code` });
  const cut = [args.slice(0, 20), args.slice(20, 31), args.slice(31, 57), args.slice(57)];
  const body = stream(cut);
  const moved = moveInBody(body, 'text/event-stream', FROM, TO);
  assert.equal(argumentsOf(moved), args.split(FROM).join(TO));
  assert.equal(moved.split('\n\n')[0], body.split('\n\n')[0], 'the first event named no path and is byte for byte the same');
  assert.ok(moved.endsWith('data: [DONE]\n\n'));
});

test('a JSON answer and a recorded request are moved whole; the same folder moves nothing', () => {
  const call = {
    call: 1,
    protocol: 'chat-completions',
    kind: 'model',
    method: 'POST',
    path: '/v1/chat/completions',
    stream: false,
    status: 200,
    usage: { input: 1, output: 1, cached: 0, reasoning: 0 },
    ms: 1,
    retries: 0,
    request: { messages: [{ role: 'user', content: `Edit ${FROM}app/code` }] },
    raw: { status: 200, contentType: 'application/json', body: JSON.stringify({ content: `${FROM}app` }), encoding: 'utf8' },
  } as RecordedCall;
  const [moved] = moveRecording([call], FROM, TO);
  assert.deepEqual(moved.request, { messages: [{ role: 'user', content: `Edit ${TO}app/code` }] });
  assert.equal(moved.raw?.body, JSON.stringify({ content: `${TO}app` }));
  assert.deepEqual(moveRecording([call], FROM, FROM), [call]);
});
