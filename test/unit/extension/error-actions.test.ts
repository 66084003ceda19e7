// Agent and settings errors name a setting that exists, and the toast offers to open it.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { AgentRole } from '../../../src/core/agents/agent-driver';
import { CliAgentDriver } from '../../../src/core/agents/cli-driver';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { readAgentSettings } from '../../../src/core/agents/agent-settings';
import { UserError } from '../../../src/core/util/errors';
import { errorButtons, OPEN_SETTINGS, settingOf, settingsCommandFor } from '../../../src/extension/error-actions';
import { contributedSettings } from './contributed-settings';

const contributedKeys = (): Set<string> => new Set(contributedSettings().keys());
const SHOW_LOG = 'Show Log';

/** What the driver throws before a run when the agent's program is missing or not executable on `searchPath`. */
async function startError(settings: ConstructorParameters<typeof CliAgentDriver>[0], role: AgentRole, searchPath: string): Promise<UserError> {
  try {
    await new CliAgentDriver(settings, new LocalRuntime()).assertStartable(role, searchPath, searchPath);
  } catch (err) {
    assert.ok(err instanceof UserError, String(err));
    return err;
  }
  throw new Error(`${JSON.stringify(settings)} started`);
}

test("a preset agent that does not start points at the role's agent setting, which exists", async () => {
  const keys = contributedKeys();
  const empty = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-no-agent-'));
  for (const role of ['architect', 'programmer'] as const) {
    const err = await startError({ kind: 'preset', preset: 'claude-code' }, role, empty);
    assert.match(err.message, /"claude" was not found/);
    const key = settingOf(err);
    assert.equal(key, `sweci.${role}.agent`);
    assert.ok(keys.has(key), `${key} is contributed`);
    assert.ok(err.message.includes(key), err.message);
    assert.deepEqual(errorButtons(err), [OPEN_SETTINGS, SHOW_LOG]);
  }
  await fs.rm(empty, { recursive: true });
});

test('a custom agent that does not start points at its command setting, which exists', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-no-agent-'));
  await fs.writeFile(path.join(dir, 'my-agent'), '#!/bin/sh\n', { mode: 0o644 });
  const err = await startError({ kind: 'custom', command: 'my-agent {promptFile}' }, 'programmer', dir);
  await fs.rm(dir, { recursive: true });
  assert.match(err.message, /"my-agent" is not executable/);
  assert.equal(settingOf(err), 'sweci.programmer.customCommand');
  assert.ok(contributedKeys().has(settingOf(err)!));
  assert.match(err.message, /sweci\.programmer\.customCommand/);
});

test('a bad value in the agent settings names its own key', () => {
  const keys = contributedKeys();
  const cases: Record<string, unknown>[] = [
    { 'architect.agent': 'nobody' },
    { 'architect.agent': 'custom' },
    { 'architect.timeoutSeconds': -3 },
    { 'architect.extraArgs': 'not-a-list' },
    { 'architect.env': { A: 1 } },
  ];
  for (const values of cases) {
    let caught: unknown;
    try {
      readAgentSettings('architect', (k) => values[k]);
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof UserError, JSON.stringify(values));
    const key = settingOf(caught);
    assert.ok(key && keys.has(key), `${JSON.stringify(values)} → ${key}`);
  }
});

test('errors without a setting offer only the log', () => {
  assert.deepEqual(errorButtons(new UserError('no task here')), [SHOW_LOG]);
  assert.deepEqual(errorButtons(new Error('bug')), [SHOW_LOG]);
  assert.equal(settingOf('text'), undefined);
});

test('Open Settings opens the scope whose value is in force: the workspace when it sets the key, else the user settings', () => {
  assert.equal(settingsCommandFor({ workspaceValue: 'codex' }), 'workbench.action.openWorkspaceSettings');
  assert.equal(settingsCommandFor({ workspaceFolderValue: 'codex' }), 'workbench.action.openWorkspaceSettings');
  assert.equal(settingsCommandFor({ workspaceValue: false }), 'workbench.action.openWorkspaceSettings', 'a false value is a value');
  assert.equal(settingsCommandFor({}), 'workbench.action.openSettings');
  assert.equal(settingsCommandFor(undefined), 'workbench.action.openSettings');
});
