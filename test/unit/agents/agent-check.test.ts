// Check Agents without the real CLIs: fake ones written by the test. The `--version` probe runs
// with a private home (a CLI that writes its state on `--version` leaves nothing in the user's),
// and a preset that needs a model with an endpoint (opencode) is refused with the setting to set.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { checkAgents } from '../../../src/core/agents/check/agent-check';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';

const posix = process.platform !== 'win32';
const runtime = new LocalRuntime({ orphanGraceMs: 500 });
const HOME_VARIABLES = ['HOME', 'USERPROFILE', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'TMPDIR'] as const;

let tmp: string;
let userHome: string;
let userTmp: string;
const saved: Partial<Record<(typeof HOME_VARIABLES)[number], string>> = {};

/** Every file and folder below `dir`, relative to it. */
async function tree(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  return entries.map(String).sort();
}

/**
 * A CLI that, asked `--version`, writes where gemini and opencode do (its home, the XDG folders),
 * prints a version and exits 0; asked anything else, it notes the call in `ran` and fails.
 */
async function fakeCli(name: string): Promise<{ file: string; ran: string }> {
  const file = path.join(tmp, 'bin', name);
  const ran = path.join(tmp, `${name}.ran`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then',
      '  mkdir -p "$HOME/.gemini" && : > "$HOME/.gemini/projects.json.4242.tmp"',
      '  for d in "${XDG_DATA_HOME:-$HOME/.local/share}" "${XDG_STATE_HOME:-$HOME/.local/state}" "${XDG_CACHE_HOME:-$HOME/.cache}"; do mkdir -p "$d/opencode"; done',
      '  echo "9.8.7"',
      '  exit 0',
      'fi',
      `echo "$@" >> '${ran}'`,
      'exit 3',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { file, ran };
}

describe('sweci agents check / Check Agents, with fake CLIs', { skip: !posix }, () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-agent-check-test-')));
    // The user's home for this test: the process's HOME and XDG folders point into it.
    userHome = path.join(tmp, 'user-home');
    userTmp = path.join(tmp, 'user-tmp');
    await fs.mkdir(userHome);
    await fs.mkdir(userTmp);
    for (const v of HOME_VARIABLES) {
      if (process.env[v] !== undefined) saved[v] = process.env[v];
      delete process.env[v];
    }
    process.env.HOME = userHome;
    process.env.TMPDIR = userTmp;
  });

  after(async () => {
    for (const v of HOME_VARIABLES) {
      if (saved[v] !== undefined) process.env[v] = saved[v];
      else delete process.env[v];
    }
    await runtime.dispose();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test("the --version probe runs with a private home, removed after: nothing lands in the user's home", async () => {
    const gemini = await fakeCli('gemini');
    const agents: Record<'architect' | 'programmer', AgentSettings> = {
      architect: { kind: 'human' },
      programmer: { kind: 'preset', preset: 'gemini', executable: gemini.file, timeoutSec: 30 },
    };
    const [, programmer] = await checkAgents({ agents, secretEnv: {}, runtime, stepTimeoutMs: 30_000 });
    assert.equal(programmer.executable.mark, 'ok', JSON.stringify(programmer.executable));
    assert.match(programmer.executable.detail, /9\.8\.7/);
    assert.deepEqual(await tree(userHome), [], "the user's home is as it was");
    assert.deepEqual(await tree(userTmp), [], "the probe's home and the scratch task are gone");
  });

  test('opencode with an endpoint and no model: its step is refused with the setting to set, and the CLI never runs', async () => {
    const opencode = await fakeCli('opencode');
    const settings = (model?: string): AgentSettings => ({
      kind: 'preset',
      preset: 'opencode',
      executable: opencode.file,
      baseUrl: 'http://127.0.0.1:9/v1',
      timeoutSec: 30,
      ...(model ? { model } : {}),
    });
    const rows = await checkAgents({ agents: { architect: settings('coder'), programmer: settings() }, secretEnv: {}, runtime, stepTimeoutMs: 30_000 });
    const programmer = rows[1];
    assert.equal(programmer.ok, false);
    assert.equal(programmer.step.mark, 'fail');
    assert.match(programmer.step.detail, /^not tried: opencode as the programmer needs a model .* Set sweci\.programmer\.model \(sweci: --programmer-model\)/);
    // The architect has its model: only the endpoint (nothing answers on port 9) stops its step.
    assert.equal(rows[0].endpoint.mark, 'fail');
    assert.equal(rows[0].step.mark, 'skip');
    assert.equal(await fs.readFile(opencode.ran, 'utf8').catch(() => undefined), undefined, 'the CLI was only asked its version');
  });
});
