// Preset argv: no shell, the prompt never inside a shell string, model and extra args.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AGENT_PRESETS } from '../../../src/core/agents/agent-driver';
import type { CommandContext } from '../../../src/core/agents/agent-command';
import { buildCustomCommand } from '../../../src/core/agents/custom-command';
import { buildPresetCommand } from '../../../src/core/agents/preset-command';
import { PRESET_INFO } from '../../../src/core/agents/presets';
import { UserError } from '../../../src/core/util/errors';

const PROMPT = 'You are the architect.\nRead `/t/app/non-passed/summary.jsonl`; don\'t run "pytest" $(rm -rf ~) | tee x';
const ctx = (extra: Partial<CommandContext> = {}): CommandContext => ({
  role: 'architect',
  prompt: PROMPT,
  promptFile: '/t/.sweci/runs/r1/iter-001/architect.prompt.md',
  cwd: '/t/app',
  ...extra,
});

describe('buildPresetCommand', () => {
  const table = (extra: Partial<CommandContext>) =>
    Object.fromEntries(
      AGENT_PRESETS.map((p) => {
        const c = buildPresetCommand(p, ctx(extra));
        return [
          p,
          { command: c.command, args: c.args.map((a) => (a === PROMPT ? '<PROMPT>' : a)), stdin: c.stdin === PROMPT ? '<PROMPT>' : c.stdin, via: c.promptVia },
        ];
      }),
    );
  const aiderArgs = (...more: string[]) => [
    '--message-file',
    '/t/.sweci/runs/r1/iter-001/architect.prompt.md',
    '--yes-always',
    ...more,
    '--no-auto-commits',
    '--no-git',
    '--no-check-update',
    '--no-pretty',
    '--chat-history-file',
    '/t/.sweci/runs/r1/iter-001/aider.chat.history.md',
    '--input-history-file',
    '/t/.sweci/runs/r1/iter-001/aider.input.history',
  ];

  test('the argv of each preset, not confined: edits only, nothing that runs commands unasked', () => {
    assert.deepEqual(table({}), {
      'claude-code': {
        command: 'claude',
        args: ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', '--setting-sources', 'user'],
        stdin: '<PROMPT>',
        via: 'stdin',
      },
      codex: { command: 'codex', args: ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'workspace-write', '-'], stdin: '<PROMPT>', via: 'stdin' },
      gemini: { command: 'gemini', args: ['--output-format', 'stream-json', '--approval-mode', 'auto_edit'], stdin: '<PROMPT>', via: 'stdin' },
      qwen: { command: 'qwen', args: ['--output-format', 'stream-json', '--approval-mode', 'auto_edit'], stdin: '<PROMPT>', via: 'stdin' },
      opencode: { command: 'opencode', args: ['run', '--format', 'json', '--dir', '/t/app', '<PROMPT>'], stdin: undefined, via: 'argv' },
      iflow: { command: 'iflow', args: ['-p', '<PROMPT>'], stdin: undefined, via: 'argv' },
      aider: { command: 'aider', args: aiderArgs('--no-suggest-shell-commands'), stdin: undefined, via: 'file' },
    });
  });

  test('the argv of each preset, confined (sandbox or container): every action accepted, as the reference runs its agents', () => {
    assert.deepEqual(table({ confined: true }), {
      'claude-code': {
        command: 'claude',
        args: ['-p', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions', '--setting-sources', 'user'],
        stdin: '<PROMPT>',
        via: 'stdin',
      },
      codex: {
        command: 'codex',
        args: ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-'],
        stdin: '<PROMPT>',
        via: 'stdin',
      },
      gemini: { command: 'gemini', args: ['--output-format', 'stream-json', '--approval-mode', 'yolo'], stdin: '<PROMPT>', via: 'stdin' },
      qwen: { command: 'qwen', args: ['--output-format', 'stream-json', '--approval-mode', 'yolo'], stdin: '<PROMPT>', via: 'stdin' },
      opencode: { command: 'opencode', args: ['run', '--format', 'json', '--dir', '/t/app', '<PROMPT>'], stdin: undefined, via: 'argv' },
      iflow: { command: 'iflow', args: ['-y', '-p', '<PROMPT>'], stdin: undefined, via: 'argv' },
      aider: { command: 'aider', args: aiderArgs(), stdin: undefined, via: 'file' },
    });
  });

  test('with our endpoint, presets that name providers use ours for the model', () => {
    const m = (p: (typeof AGENT_PRESETS)[number]) => {
      const args = buildPresetCommand(p, ctx({ model: 'm-1', endpoint: true })).args;
      return args[args.indexOf('--model') + 1];
    };
    assert.equal(m('opencode'), 'sweci/m-1');
    assert.equal(m('aider'), 'openai/m-1');
    for (const p of ['claude-code', 'codex', 'gemini', 'qwen', 'iflow'] as const) assert.equal(m(p), 'm-1', p);
  });

  test('the prompt is never part of a larger argv element (no shell string anywhere)', () => {
    for (const p of AGENT_PRESETS) {
      const c = buildPresetCommand(p, ctx());
      for (const a of c.args) assert.ok(a === PROMPT || !a.includes('You are the architect'), `${p}: ${a}`);
      assert.ok(!/^(sh|bash|cmd|powershell)$/.test(c.command), `${p} runs through a shell`);
      if (c.promptVia === 'stdin') assert.ok(!c.args.includes(PROMPT), `${p} passes the prompt twice`);
    }
  });

  test('model flag and extra args; codex keeps "-" last', () => {
    const withModel = (p: (typeof AGENT_PRESETS)[number]) => buildPresetCommand(p, ctx({ model: ' m-1 ', extraArgs: ['--extra', 'v a l'] })).args;
    assert.deepEqual(withModel('claude-code').slice(-4), ['--model', 'm-1', '--extra', 'v a l']);
    assert.deepEqual(withModel('codex').slice(-5), ['--model', 'm-1', '--extra', 'v a l', '-']);
    assert.deepEqual(withModel('gemini').slice(-4), ['--model', 'm-1', '--extra', 'v a l']);
    assert.deepEqual(withModel('qwen').slice(-4), ['--model', 'm-1', '--extra', 'v a l']);
    assert.deepEqual(withModel('opencode').slice(5), ['--model', 'm-1', '--extra', 'v a l', PROMPT]);
    assert.deepEqual(withModel('iflow'), ['--model', 'm-1', '--extra', 'v a l', '-p', PROMPT]);
    assert.deepEqual(withModel('aider').slice(-4), ['--model', 'm-1', '--extra', 'v a l']);
    for (const p of AGENT_PRESETS) assert.ok(!buildPresetCommand(p, ctx({ model: '  ' })).args.includes('--model'), `${p}: blank model`);
  });

  test('an executable override; a prompt starting with "-" is not taken for an option', () => {
    assert.equal(buildPresetCommand('claude-code', ctx(), '/opt/bin/claude').command, '/opt/bin/claude');
    const c = buildPresetCommand('opencode', ctx({ prompt: '--help me' }));
    assert.equal(c.args[c.args.length - 1], ' --help me');
  });

  test('every preset has install advice and a usage format', () => {
    for (const p of AGENT_PRESETS) {
      assert.ok(PRESET_INFO[p].install.length > 0);
      assert.equal(buildPresetCommand(p, ctx()).usageFormat, PRESET_INFO[p].usageFormat);
    }
  });
});

describe('buildCustomCommand', () => {
  test('placeholders are substituted inside words; the prompt goes on stdin by default', () => {
    const c = buildCustomCommand(
      { command: `my-agent --role={role} --in '{promptFile}' -C "{cwd}/code" -m {model}` },
      ctx({ model: 'gpt-x', extraArgs: ['--last'] }),
    );
    assert.equal(c.command, 'my-agent');
    assert.deepEqual(c.args, ['--role=architect', '--in', ctx().promptFile, '-C', '/t/app/code', '-m', 'gpt-x', '--last']);
    assert.equal(c.stdin, PROMPT);
    assert.equal(c.promptVia, 'stdin');
    assert.equal(c.usageFormat, 'auto');
  });

  test('promptVia file: no stdin, and {promptFile} is required', () => {
    const c = buildCustomCommand({ command: 'agent --file {promptFile}', promptVia: 'file' }, ctx());
    assert.equal(c.stdin, undefined);
    assert.throws(
      () => buildCustomCommand({ command: 'agent --go', promptVia: 'file' }, ctx()),
      (e: unknown) => e instanceof UserError && /\{promptFile\}/.test(e.message),
    );
  });

  test('values are never re-split or expanded: a path with spaces stays one word', () => {
    const c = buildCustomCommand({ command: 'agent {cwd} $HOME' }, ctx({ cwd: '/my tasks/app; rm -rf /' }));
    assert.deepEqual(c.args, ['/my tasks/app; rm -rf /', '$HOME']);
  });

  test('unknown placeholder, missing model, empty command are user errors', () => {
    assert.throws(
      () => buildCustomCommand({ command: 'agent {promtFile}' }, ctx()),
      (e: unknown) => e instanceof UserError && /\{promtFile\}/.test(e.message),
    );
    assert.throws(
      () => buildCustomCommand({ command: 'agent -m {model}' }, ctx()),
      (e: unknown) => e instanceof UserError && /no model/.test(e.message),
    );
    assert.throws(() => buildCustomCommand({ command: '   ' }, ctx()), UserError);
    assert.throws(() => buildCustomCommand({ command: `'' x` }, ctx()), UserError);
    // JSON-looking braces are not placeholders.
    assert.deepEqual(buildCustomCommand({ command: `agent '{"a": 1}'` }, ctx()).args, ['{"a": 1}']);
  });
});
