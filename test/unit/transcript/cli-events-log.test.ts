// The try's log as the driver writes it (a real agent process through CliAgentDriver), and logs
// as hostile input: garbage lines, a step cut short, odd shapes, no event stream at all.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { quoteWord } from '../../../src/core/util/argv-tokenizer';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { readCliEvents, transcriptFromCliEvents } from '../../../src/core/transcript/cli-events-transcript';
import { transcriptSchema } from '../../../src/shared/transcript-schema';
import { lines, META, shape, transcriptOf, tryLog } from './cli-events-fixture';

const posix = process.platform !== 'win32';

/** A Claude-shaped stream (Qwen Code's, say) as an agent prints it. */
const EVENTS = [
  { type: 'system', subtype: 'init', tools: ['run_shell_command', 'write_file'], model: 'm', qwen_code_version: '0.15.10' },
  {
    type: 'assistant',
    message: {
      id: 'a1',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', id: 'c1', name: 'run_shell_command', input: { command: 'ls' } }],
      usage: { input_tokens: 100, output_tokens: 10 },
    },
  },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'code\n' }] } },
  {
    type: 'assistant',
    message: {
      id: 'a2',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', id: 'c2', name: 'write_file', input: { file_path: 'a.py', content: 'x = 1\n' } }],
      usage: { input_tokens: 150, output_tokens: 20 },
    },
  },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c2', content: 'ok' }] } },
  {
    type: 'assistant',
    message: { id: 'a3', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 200, output_tokens: 5 } },
  },
  { type: 'result', subtype: 'success', is_error: false, result: 'Done.', usage: { input_tokens: 450, output_tokens: 35 } },
];

describe('the log as the driver writes it', { skip: !posix && 'POSIX process tests' }, () => {
  const runtime = new LocalRuntime({ orphanGraceMs: 500 });
  let tmp: string;

  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-cli-events-')));
    await fs.mkdir(path.join(tmp, 'app'));
  });
  after(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  /** Runs a Python agent that prints `body` through the driver; returns its log. */
  async function runAgent(name: string, body: string, timeoutMs = 60_000): Promise<string> {
    const script = path.join(tmp, `${name}.py`);
    await fs.writeFile(script, `import json, sys, time\nsys.stdin.read() if not sys.stdin.isatty() else None\n${body}\n`);
    const logFile = path.join(tmp, 'runs', name, 'programmer-try-1.log');
    const driver = createDriver({ kind: 'custom', command: `python3 ${quoteWord(script)}` }, { host: runtime });
    await driver.run({
      role: 'programmer',
      prompt: 'go',
      promptFile: path.join(tmp, 'runs', name, 'programmer.prompt.md'),
      cwd: path.join(tmp, 'app'),
      env: {},
      timeoutMs,
      logFile,
    });
    return fs.readFile(logFile, 'utf8');
  }

  test('events written in pieces, stderr between them, the header and the footer: the turns, and the usage the driver read', async () => {
    const log = await runAgent(
      'pieces',
      [
        `events = ${JSON.stringify(EVENTS.map((e) => JSON.stringify(e)))}`,
        'for i, line in enumerate(events):',
        '    half = len(line) // 2',
        // Each line in two writes with a pause between: the driver logs chunks as they come.
        '    sys.stdout.write(line[:half]); sys.stdout.flush(); time.sleep(0.02)',
        "    sys.stdout.write(line[half:] + '\\n'); sys.stdout.flush()",
        "    sys.stderr.write(f'[debug] step {i} {{not json}}\\n'); sys.stderr.flush(); time.sleep(0.02)",
      ].join('\n'),
    );
    assert.match(log, /^# SWE-CI agent run\n/);
    assert.match(log, /# usage: {3}450 input tokens, 35 output tokens/);
    const t = transcriptOf(log, 'custom');
    assert.deepEqual(
      t.calls.map((c) => [shape(c.input), shape(c.output)]),
      [
        [[], ['call:run_shell_command']],
        [['result:run_shell_command=code\n'], ['call:write_file']],
        [['result:write_file=ok'], ['assistant:Done.']],
      ],
    );
    assert.deepEqual(t.totals.usage, { input: 450, output: 35, cached: 0, reasoning: 0 });
    assert.deepEqual(t.notes, [], 'stderr, the header and the footer are not events');
    assert.ok(t.totals.ms > 0, "the driver's measure of the try");
  });

  test('a stderr line written while a stdout event is half written stays out of the event in the log', async () => {
    const log = await runAgent(
      'interleaved',
      [
        `events = ${JSON.stringify(EVENTS.map((e) => JSON.stringify(e)))}`,
        'for i, line in enumerate(events):',
        '    half = len(line) // 2',
        // Half an event, then a whole stderr line, then the rest: the driver gets them in that order.
        '    sys.stdout.write(line[:half]); sys.stdout.flush(); time.sleep(0.1)',
        "    sys.stderr.write(f'[debug] between {i}\\n'); sys.stderr.flush(); time.sleep(0.1)",
        "    sys.stdout.write(line[half:] + '\\n'); sys.stdout.flush()",
      ].join('\n'),
    );
    for (const e of EVENTS) assert.ok(log.includes(`${JSON.stringify(e)}\n`), `the event is whole in the log: ${JSON.stringify(e).slice(0, 60)}`);
    const t = transcriptOf(log, 'custom');
    assert.equal(t.calls.length, 3);
    assert.deepEqual(t.notes, []);
  });

  test('a try killed while writing an event: the line cut short is skipped silently, and the note says how it ended', async () => {
    const log = await runAgent(
      'killed',
      [
        `events = ${JSON.stringify(EVENTS.slice(0, 3).map((e) => JSON.stringify(e)))}`,
        "for line in events: sys.stdout.write(line + '\\n')",
        `sys.stdout.write(${JSON.stringify(JSON.stringify(EVENTS[3]).slice(0, 40))}); sys.stdout.flush()`,
        'time.sleep(60)',
      ].join('\n'),
      2_000,
    );
    const t = transcriptOf(log, 'qwen');
    assert.equal(t.calls.length, 2, 'the first turn, and the tool result waiting for an answer');
    assert.match(t.calls[1].truncated ?? '', /before the model answered/);
    assert.ok(
      t.notes.some((n) => /^The try ended: timed out/.test(n)),
      t.notes.join('\n'),
    );
    assert.ok(!t.notes.some((n) => /could not be read/.test(n)), t.notes.join('\n'));
  });
});

describe('logs as hostile input', () => {
  test('garbage between the events: skipped, and the lines that looked like events are counted', () => {
    const good = EVENTS.map((e) => JSON.stringify(e));
    const garbage = [
      'plain text',
      '{not json at all',
      '{"type": "assistant", "message": ',
      '[1, 2, 3]',
      '"a string"',
      '42',
      'null',
      '[WARN] {something}',
      '\u0000\uffff'.repeat(50),
    ];
    const mixed = good.flatMap((l, i) => [l, garbage[i % garbage.length]]).join('\n') + '\n';
    const t = transcriptOf(tryLog('Qwen Code', mixed), 'qwen');
    assert.equal(t.calls.length, 3);
    assert.deepEqual(t.calls[2].output, [{ kind: 'text', role: 'assistant', text: 'Done.' }]);
    assert.ok(t.notes.includes('2 lines of the log looked like events but could not be read: skipped.'), t.notes.join('\n'));
  });

  test('a half-written last line (a step still being written) is skipped silently; the log has no end line yet', () => {
    const running = EVENTS.slice(0, 2)
      .map((e) => JSON.stringify(e))
      .join('\n');
    const t = transcriptOf(tryLog('Qwen Code', `${running}\n${JSON.stringify(EVENTS[2]).slice(0, 30)}`, { ended: null }), 'qwen');
    assert.equal(t.calls.length, 1);
    assert.deepEqual(t.notes, ['The log has no end line: the try is still running, or was stopped before the driver could finish its log.']);
  });

  test('no event stream: no transcript', () => {
    const none = [
      '',
      tryLog('custom: agent.py', ''),
      tryLog('custom: agent.py', 'architect: 2 non-passed tests\nwrote requirement.xml\n'),
      tryLog('Aider', 'Tokens: 12k sent, 345 received. Cost: $0.04 message, $0.10 session.\n'),
      tryLog('iFlow CLI', 'Done.\n', { stderr: '<Execution Info>{"tokenUsage":{"input":1,"output":2}}</Execution Info>\n' }),
      tryLog('custom: agent.py', '{"status": "ok"}\n[1, 2]\n'),
      'random bytes \u0000\u0001\u0002',
    ];
    for (const log of none) assert.equal(transcriptFromCliEvents(log, META), undefined, JSON.stringify(log.slice(-80)));
  });

  test('odd shapes in recognised events never throw: each reader still gives a transcript that matches the schema', () => {
    const odd: unknown[] = [null, 5, -3, 1.5e308, 'x', [], {}, [null], { text: 7 }, true];
    const streams: Record<string, object[]> = {
      qwen: EVENTS,
      'claude-code': EVENTS,
      codex: [
        { type: 'turn.started' },
        { type: 'item.started', item: { id: 'c', type: 'command_execution', command: 'ls', aggregated_output: '', exit_code: null, status: 'in_progress' } },
        { type: 'item.completed', item: { id: 'c', type: 'command_execution', command: 'ls', aggregated_output: 'a', exit_code: 0, status: 'completed' } },
        { type: 'item.completed', item: { id: 'f', type: 'file_change', changes: [{ path: 'a', kind: 'add' }], status: 'completed' } },
        { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: 'ok' } },
        { type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 2 } },
        { type: 'turn.failed', error: { message: 'x' } },
        { id: '0', msg: { type: 'token_count', info: { total_token_usage: { input_tokens: 1 }, last_token_usage: { input_tokens: 1 } } } },
      ],
      gemini: [
        { type: 'init', session_id: 's', model: 'g' },
        { type: 'message', role: 'user', content: 'go' },
        { type: 'tool_use', tool_name: 'write_file', tool_id: 't', parameters: { file_path: 'a' } },
        { type: 'tool_result', tool_id: 't', status: 'error', error: { message: 'no' } },
        { type: 'message', role: 'assistant', content: 'ok', delta: true },
        { type: 'result', status: 'success', stats: { input_tokens: 1, output_tokens: 1, models: { g: { tokens: { prompt: 1 } } } } },
      ],
      opencode: [
        { type: 'step_start', timestamp: 1, part: { type: 'step-start' } },
        { type: 'tool_use', timestamp: 2, part: { tool: 'bash', callID: 'c', state: { status: 'completed', input: { command: 'ls' }, output: 'a' } } },
        { type: 'text', timestamp: 3, part: { text: 'ok' } },
        { type: 'step_finish', timestamp: 4, part: { tokens: { input: 1, output: 1, cache: { read: 0 } }, cost: 0, reason: 'stop' } },
        { type: 'error', error: { name: 'E' } },
      ],
    };
    // Every value below the event's `type` replaced, one at a time, by each odd value.
    let checked = 0;
    for (const [agent, events] of Object.entries(streams)) {
      for (let e = 0; e < events.length; e++) {
        for (const keyPath of paths(events[e])) {
          for (const value of odd) {
            const mutated = events.map((ev, i) => (i === e ? replaced(ev, keyPath, value) : ev));
            // The readers unguarded: a throw fails the test.
            const t = readCliEvents(tryLog(agent, lines(...mutated)), { ...META, agent });
            // An event may lose what made it recognisable; a transcript, when there is one, is whole.
            if (t === undefined) continue;
            const parsed = transcriptSchema.safeParse(t);
            assert.ok(parsed.success, `${agent} ${keyPath.join('.')} = ${JSON.stringify(value)}`);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 500, `${checked} odd streams read`);
  });
});

/** Every path to a value in `v` below its top-level `type`. */
function paths(v: unknown, prefix: string[] = []): string[][] {
  if (typeof v !== 'object' || v === null) return prefix.length > 0 ? [prefix] : [];
  const out: string[][] = prefix.length > 0 ? [prefix] : [];
  for (const [k, child] of Object.entries(v)) {
    if (prefix.length === 0 && k === 'type') continue;
    out.push(...paths(child, [...prefix, k]));
  }
  return out;
}

function replaced(v: object, keyPath: string[], value: unknown): object {
  const copy = JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const k of keyPath.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[keyPath[keyPath.length - 1]] = value;
  return copy;
}
