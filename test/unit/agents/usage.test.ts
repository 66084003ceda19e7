// Usage parsers on sample outputs written from each agent's documented format.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { parseAiderUsage, tokenCount } from '../../../src/core/agents/usage/aider';
import { parseUsage, USAGE_FORMATS } from '../../../src/core/agents/agent-output';
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

  test('auto finds each format; none reports nothing', () => {
    assert.equal(parseUsage('auto', '', sample('iflow.stderr.txt'))?.inputTokens, 48210);
    assert.equal(parseUsage('auto', sample('aider.txt'), '')?.outputTokens, 1549);
    assert.equal(parseUsage('auto', sample('claude-code.json'), '')?.costUsd, 0.4213);
    assert.equal(parseUsage('auto', sample('codex.jsonl'), '')?.outputTokens, 122);
    assert.equal(parseUsage('auto', sample('gemini.json'), '')?.inputTokens, 25939);
    assert.equal(parseUsage('none', sample('claude-code.json'), ''), undefined);
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
    for (const format of [...USAGE_FORMATS, 'auto'] as const) {
      for (const text of odd) assert.equal(parseUsage(format, text, text), undefined, `${format}: ${JSON.stringify(text)}`);
    }
  });
});

describe('aider helpers', () => {
  test('token counts with k/M suffixes and thousands separators', () => {
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
