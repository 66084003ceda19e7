// Usage parsers on sample outputs written from each agent's documented format.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseAiderUsage } from '../../../src/core/agents/presets/aider/usage';
import { parseUsage } from '../../../src/core/agents/agent-output';
import { AGENT_PRESETS } from '../../../src/core/agents/presets';
import { fixturesDir } from '../helpers/repo-root';

const sample = (name: string): string => fs.readFileSync(path.join(fixturesDir, 'agent-output', name), 'utf8');

describe('parseUsage', () => {
  test('Claude Code JSON result: input includes cache reads and writes', () => {
    assert.deepEqual(parseUsage('claude-code', sample('claude-code.json'), ''), {
      inputTokens: 38 + 12040 + 160233,
      outputTokens: 2911,
      costUsd: 0.4213,
    });
  });

  test('Claude Code stream-json: the result line', () => {
    assert.deepEqual(parseUsage('claude-code', sample('claude-code.stream.jsonl'), ''), { inputTokens: 1000, outputTokens: 250, costUsd: 0.05 });
  });

  test('Codex turn.completed events (input already includes cached)', () => {
    assert.deepEqual(parseUsage('codex', sample('codex.jsonl'), ''), { inputTokens: 24763, outputTokens: 122 });
    const twoTurns = sample('codex.jsonl') + '{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":7}}\n';
    assert.deepEqual(parseUsage('codex', twoTurns, ''), { inputTokens: 24863, outputTokens: 129 });
  });

  test('Codex token_count events: the last cumulative total', () => {
    assert.deepEqual(parseUsage('codex', sample('codex-token-count.jsonl'), ''), { inputTokens: 3000, outputTokens: 400 });
  });

  test('Gemini CLI JSON stats after a log line: summed over models, thoughts count as output', () => {
    assert.deepEqual(parseUsage('gemini', sample('gemini.json'), ''), { inputTokens: 25939, outputTokens: 320 + 154 + 30 });
  });

  test('Gemini CLI stream-json result stats', () => {
    assert.deepEqual(parseUsage('gemini', sample('gemini.stream.jsonl'), ''), { inputTokens: 5000, outputTokens: 200 });
  });

  test('the stream-json event streams as the pinned CLIs print them (built here): the final result', () => {
    const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
    const claudeMessage = (id: string, input: number, read: number) => ({
      type: 'assistant',
      message: {
        id,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'x' }],
        usage: { input_tokens: input, cache_read_input_tokens: read, output_tokens: 0 },
      },
      parent_tool_use_id: null,
    });
    const claude = lines(
      { type: 'system', subtype: 'init', tools: ['Bash', 'Write'], model: 'claude-sonnet-4-5' },
      claudeMessage('m1', 1100, 0),
      claudeMessage('m2', 1100, 200),
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        total_cost_usd: 0.0129,
        usage: { input_tokens: 2200, cache_creation_input_tokens: 10, cache_read_input_tokens: 200, output_tokens: 153 },
      },
    );
    assert.deepEqual(parseUsage('claude-code', claude, ''), { inputTokens: 2200 + 10 + 200, outputTokens: 153, costUsd: 0.0129 });
    // Qwen Code: per-message usage too, and the result's input already holds the cached tokens.
    const qwen = lines(
      { type: 'system', subtype: 'init', tools: ['run_shell_command'], model: 'qwen3-coder-plus', qwen_code_version: '0.15.10' },
      {
        type: 'assistant',
        message: {
          id: 'a',
          role: 'assistant',
          content: [{ type: 'text', text: 'x' }],
          usage: { input_tokens: 1300, output_tokens: 51, cache_read_input_tokens: 200 },
        },
      },
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'x',
        usage: { input_tokens: 6400, output_tokens: 288, cache_read_input_tokens: 800, total_tokens: 6688 },
      },
    );
    assert.deepEqual(parseUsage('qwen', qwen, ''), { inputTokens: 6400, outputTokens: 288 });
    // Gemini CLI 0.61: flat totals, and per model the same flat figures (no `tokens` object).
    const flat = { total_tokens: 5832, input_tokens: 5600, output_tokens: 232, cached: 600, input: 5000 };
    const gemini = lines(
      { type: 'init', session_id: 's', model: 'gemini-2.5-pro' },
      { type: 'tool_use', tool_name: 'write_file', tool_id: 't1', parameters: { file_path: 'a.py', content: '' } },
      { type: 'tool_result', tool_id: 't1', status: 'success' },
      { type: 'result', status: 'success', stats: { ...flat, duration_ms: 707, tool_calls: 1, models: { 'gemini-2.5-pro': flat } } },
    );
    assert.deepEqual(parseUsage('gemini', gemini, ''), { inputTokens: 5600, outputTokens: 232 });
  });

  test('Qwen Code JSON array: the result message; Gemini-shaped stats also accepted', () => {
    // Qwen Code copies Chat Completions' prompt_tokens, which already include the 4000 cached ones, into input_tokens:
    // they are not added again (the conformance suite checks this against a real server's figures).
    assert.deepEqual(parseUsage('qwen', sample('qwen.json'), ''), { inputTokens: 15320, outputTokens: 610 });
    assert.deepEqual(parseUsage('qwen', sample('gemini.json'), ''), { inputTokens: 25939, outputTokens: 504 });
  });

  test('opencode step_finish events: summed, cache in input, reasoning in output, cost', () => {
    const u = parseUsage('opencode', sample('opencode.jsonl'), '');
    assert.equal(u?.inputTokens, 9000 + 1000 + 500 + 9000 + 200);
    assert.equal(u?.outputTokens, 150 + 50 + 80);
    assert.ok(Math.abs((u?.costUsd ?? 0) - 0.02) < 1e-9);
  });

  test('iFlow Execution Info block on stderr', () => {
    assert.deepEqual(parseUsage('iflow', 'plain answer\n', sample('iflow.stderr.txt')), { inputTokens: 48210, outputTokens: 1933 });
  });

  test('Aider token lines: summed, with the session cost', () => {
    assert.deepEqual(parseUsage('aider', sample('aider.txt'), ''), { inputTokens: 4600 + 12000, outputTokens: 345 + 1204, costUsd: 0.07 });
  });

  test('auto finds each format', () => {
    assert.equal(parseUsage('auto', '', sample('iflow.stderr.txt'))?.inputTokens, 48210);
    assert.equal(parseUsage('auto', sample('aider.txt'), '')?.outputTokens, 1549);
    assert.equal(parseUsage('auto', sample('claude-code.json'), '')?.costUsd, 0.4213);
    assert.equal(parseUsage('auto', sample('codex.jsonl'), '')?.outputTokens, 122);
    assert.equal(parseUsage('auto', sample('gemini.json'), '')?.inputTokens, 25939);
  });

  test('odd output never throws and reports nothing', () => {
    const odd = [
      '',
      'just text\n',
      '{not json',
      '{"type":"result"}',
      '{"type":"result","usage":{"input_tokens":"many","output_tokens":-4}}',
      '[1, 2, {"stats": null}]',
      '<Execution Info>{broken</Execution Info>',
      '<Execution Info>{"tokenUsage": 5}</Execution Info>',
      'Tokens: lots sent, none received.',
      'null',
      '"a string"',
      '{"type":"turn.completed","usage":null}',
      '\u0000\uffff'.repeat(100),
    ];
    for (const format of [...AGENT_PRESETS, 'auto'] as const) {
      for (const text of odd) assert.equal(parseUsage(format, text, text), undefined, `${format}: ${JSON.stringify(text)}`);
    }
  });
});

describe('aider helpers', () => {
  test('token counts with k/M suffixes and thousands separators', () => {
    const tokenCount = (text: string): number | undefined => parseAiderUsage(`Tokens: ${text} sent, 1 received.\n`)?.inputTokens;
    assert.equal(tokenCount('345'), 345);
    assert.equal(tokenCount('1,204'), 1204);
    assert.equal(tokenCount('1.2k'), 1200);
    assert.equal(tokenCount('12k'), 12000);
    assert.equal(tokenCount('1.5M'), 1_500_000);
    assert.equal(tokenCount('x'), undefined);
  });

  test('a line without cost still counts tokens', () => {
    assert.deepEqual(parseAiderUsage('Tokens: 2.3k sent, 120 received.\n'), { inputTokens: 2300, outputTokens: 120 });
  });
});
