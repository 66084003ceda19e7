// One run request for the editor and the CLI: the same settings, given as VS Code gives them
// (settings.json over package.json's defaults) and as `sweci run` takes them (flags over a
// --config file), make the same settings object and the same loop and human-history requests.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { batchSettingsOf, readHeadlessSettings, type RunValues } from '../../../src/cli/commands/run-settings';
import { historyRequest, readRunSettings, loopRequest, type LoopRequest, type RunSettings } from '../../../src/core/loop/loop-request';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { contributedSettings } from '../extension/contributed-settings';

/** sweci.* as VS Code's getConfiguration('sweci').get gives it: the user's value, else package.json's default. */
function editorReader(user: Record<string, unknown>): (key: string) => unknown {
  const contributed = contributedSettings();
  return (key) => (`sweci.${key}` in user ? user[`sweci.${key}`] : contributed.get(`sweci.${key}`)?.default);
}

/** What a request holds that can be compared: drivers by their label, runtimes by identity. */
function comparable(r: LoopRequest) {
  const role = (s: LoopRequest['roles']['architect']) => ({ settings: s.settings, driver: s.driver?.label, secretEnv: s.secretEnv });
  return { ...r, roles: { architect: role(r.roles.architect), programmer: role(r.roles.programmer) } };
}

// The settings a user would write into settings.json; the CLI gets some as flags, the rest in its file.
const EDITOR_SETTINGS: Record<string, unknown> = {
  'sweci.architect.agent': 'custom',
  'sweci.architect.customCommand': 'python3 /opt/agents/architect.py',
  'sweci.programmer.agent': 'custom',
  'sweci.programmer.customCommand': 'python3 /opt/agents/programmer.py --fast',
  'sweci.programmer.env': { LEVEL: '3' },
  'sweci.python': '/usr/bin/python3',
  'sweci.pytest.timeoutSeconds': 90,
  'sweci.pytest.env': { A: '1', B: 'x=y' },
  'sweci.sandboxReadablePaths': ['/opt/agents', '/opt/tools'],
  'sweci.loop.maxIterations': 7,
  'sweci.history.commits': 5,
  'sweci.integrity.maxFileMb': 10,
  'sweci.integrity.maxIterationMb': 30,
  'sweci.agents.maxCallsPerTry': 40,
  'sweci.agents.maxCallsBytesPerTry': 1000000,
  'sweci.agents.minFreeDiskMb': 10,
};
const FLAGS: RunValues = {
  architect: 'custom',
  architectCommand: 'python3 /opt/agents/architect.py',
  timeout: '90',
  env: ['A=1', 'B=x=y'],
  sandboxReadable: '/opt/agents, /opt/tools',
  maxIterations: '7',
  maxFileMb: '10',
  maxCallsBytesPerTry: '1000000',
  minFreeDiskMb: '10',
};
const CONFIG_FILE: Record<string, unknown> = {
  'sweci.programmer.agent': 'custom',
  'sweci.programmer.customCommand': 'python3 /opt/agents/programmer.py --fast',
  'sweci.programmer.env': { LEVEL: '3' },
  'sweci.python': '/usr/bin/python3',
  'sweci.history.commits': 5,
  'sweci.integrity.maxIterationMb': 30,
  'sweci.agents.maxCallsPerTry': 40,
};

describe('one run request from the editor and from sweci run', () => {
  let tmp: string;
  let editor: RunSettings;
  let cli: RunSettings;
  let secretEnv: Record<string, string>;
  const host = new LocalRuntime();
  const env = { tests: host, python: '/usr/bin/python3', host };

  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-loop-request-'));
    const config = path.join(tmp, 'settings.json');
    await fs.writeFile(config, JSON.stringify(CONFIG_FILE));
    const values: RunValues = { ...FLAGS, config };
    // The CLI's way: its settings, then the batch settings every task's loop is built from.
    const batch = batchSettingsOf(values, await readHeadlessSettings(values), {
      experimentDir: tmp,
      run: 'r',
      humanHistory: false,
      signal: new AbortController().signal,
    });
    cli = batch.settings;
    secretEnv = batch.secretEnv;
    // The editor's way (extension/config.ts's runSettings): the same parser over sweci.*.
    editor = readRunSettings(editorReader(EDITOR_SETTINGS));
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  test('the settings object is the same, defaults included (package.json says what the parsers default to)', () => {
    assert.deepEqual(cli, editor);
    assert.equal(editor.pytest.timeoutMs, 90_000);
    assert.deepEqual(editor.pytest.env, { A: '1', B: 'x=y' });
    assert.deepEqual(editor.runtime.sandboxReadablePaths, ['/opt/agents', '/opt/tools']);
    assert.equal(editor.loop.maxIterations, 7);
    assert.equal(editor.integrity.maxFileMb, 10);
    assert.equal(editor.model.maxCallsPerTry, 40);
    assert.equal(editor.model.maxCallsBytesPerTry, 1_000_000);
    assert.equal(editor.model.minFreeDiskBytes, 10 * 1024 * 1024);
  });

  test('nothing set: the editor and the CLI read the same defaults', async () => {
    const values: RunValues = { architect: 'codex', programmer: 'codex' };
    const fromCli = batchSettingsOf(values, await readHeadlessSettings(values), {
      experimentDir: tmp,
      run: 'r',
      humanHistory: false,
      signal: new AbortController().signal,
    }).settings;
    assert.deepEqual(fromCli, readRunSettings(editorReader({ 'sweci.architect.agent': 'codex', 'sweci.programmer.agent': 'codex' })));
  });

  test("the loop's request is the same: roles, where pytest and the agents run, pytest's options, the integrity bounds", () => {
    const fromEditor = loopRequest(editor, env, { secretEnv });
    const fromCli = loopRequest(cli, env, { secretEnv });
    assert.deepEqual(comparable(fromCli), comparable(fromEditor));
    assert.equal(fromEditor.runtime, host);
    assert.equal(fromEditor.agentRuntimes.host, host, 'agents on this machine run in the host runtime');
    assert.deepEqual(fromEditor.pytest, { python: '/usr/bin/python3', timeoutMs: 90_000, format: 'auto', env: { A: '1', B: 'x=y' }, network: 'none' });
    assert.equal(fromEditor.roles.programmer.driver?.label, fromCli.roles.programmer.driver?.label);
    assert.match(fromEditor.roles.programmer.driver?.label ?? '', /programmer\.py/);
    assert.deepEqual([fromEditor.maxFileMb, fromEditor.maxIterationMb, fromEditor.maxIterations], [10, 30, 7]);
  });

  test('a role the user plays in the editor has no driver; the others keep theirs', () => {
    const r = loopRequest(editor, env, { secretEnv, human: ['architect'] });
    assert.deepEqual(r.roles.architect, { settings: { kind: 'human' } });
    assert.ok(r.roles.programmer.driver);
  });

  test("the human-history replay's request is the same, with the replay's own time limit per commit", () => {
    const fromEditor = historyRequest(editor, env);
    assert.deepEqual(historyRequest(cli, env), fromEditor);
    assert.equal(fromEditor.count, 5);
    assert.equal(fromEditor.timeoutMs, editor.loop.historyTimeoutMs);
    assert.equal(fromEditor.runtime, host);
  });
});
