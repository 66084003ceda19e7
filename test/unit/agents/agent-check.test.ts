// Check Agents without the real CLIs: fake ones written by the test. The `--version` probe runs
// with a private home (a CLI that writes its state on `--version` leaves nothing in the user's),
// and a preset that needs a model with an endpoint (opencode) is refused with the setting to set.
// The demo's scripted stand-ins (custom commands) are ready; a CLI is looked up where the run
// looks it up (the PATH of the role's env setting); a failed step's reason is the agent's words;
// both roles on one agent share its one step.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { checkAgents, summarizeAgentChecks } from '../../../src/core/agents/check/agent-check';
import { findProgram } from '../../../src/core/agents/cli-driver';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { FIXTURE_AGENTS } from '../helpers/scripted-settings';

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
 * prints a version and exits 0 (a line in `asked` each time); asked anything else, it notes the
 * call in `ran` and fails.
 */
async function fakeCli(name: string): Promise<{ file: string; ran: string; asked: string }> {
  const file = path.join(tmp, 'bin', name);
  const ran = path.join(tmp, `${name}.ran`);
  const asked = path.join(tmp, `${name}.asked`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(
    file,
    [
      '#!/bin/sh',
      'if [ "$1" = "--version" ]; then',
      `  echo version >> '${asked}'`,
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
  return { file, ran, asked };
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
    // Both roles run the same program in the same environment: its version is asked once, for both.
    assert.equal(await fs.readFile(opencode.asked, 'utf8'), 'version\n');
    assert.match(rows[0].executable.detail, /9\.8\.7/);
    assert.equal(rows[1].executable.detail, rows[0].executable.detail);
  });

  test("the demo's stand-ins (custom commands, sandboxed as the demo runs them) are both ready", async () => {
    // The settings `npm run demo` writes (scripts/demo.ts), with the sandbox the demo's 'auto' gives.
    const demoRuntime = new LocalRuntime({ bwrap: await findBubblewrap(), readable: [FIXTURE_AGENTS], orphanGraceMs: 500 });
    const script = (name: string) => `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, name))}`;
    const agents: Record<'architect' | 'programmer', AgentSettings> = {
      architect: { kind: 'custom', command: script('architect.py'), timeoutSec: 60 },
      programmer: {
        kind: 'custom',
        command: script('programmer.py'),
        env: { SWECI_SCRIPTED_UPSTREAM: path.join(tmp, 'answers.git'), SWECI_SCRIPTED_COMMITS: 'a1,b2' },
        timeoutSec: 60,
      },
    };
    try {
      const rows = await checkAgents({ agents, secretEnv: {}, runtime: demoRuntime, stepTimeoutMs: 60_000 });
      for (const row of rows) {
        assert.equal(row.ok, true, JSON.stringify(row));
        assert.equal(row.executable.mark, 'ok', JSON.stringify(row.executable));
        assert.match(row.executable.detail, /python3 \(a custom command: its version is not asked\)$/);
        assert.match(row.step.detail, /^wrote sweci-check\.txt in [\d.]+ s · \d+ in, 3 out$/);
      }
      const summary = summarizeAgentChecks(rows);
      assert.equal(summary.headline, 'Both agents can run.');
      assert.deepEqual(summary.lines, ['- architect (custom: architect.py): ready', '- programmer (custom: programmer.py): ready']);
    } finally {
      await demoRuntime.dispose();
    }
  });

  test('both roles on the same agent run one step, shown for both; another setting runs its own', async () => {
    const agent = path.join(tmp, 'counted.py');
    const ran = path.join(tmp, 'counted.ran');
    await fs.writeFile(agent, ['import sys', `open(${JSON.stringify(ran)}, 'a').write('step\\n')`, 'sys.exit(4)', ''].join('\n'));
    const same: AgentSettings = { kind: 'custom', command: `python3 ${agent}`, timeoutSec: 30 };
    const rows = await checkAgents({ agents: { architect: same, programmer: { ...same } }, secretEnv: {}, runtime, stepTimeoutMs: 30_000 });
    assert.equal(await fs.readFile(ran, 'utf8'), 'step\n', 'one step for both roles');
    assert.match(rows[0].step.detail, /^exited with code 4 after [\d.]+ s/);
    assert.equal(rows[1].step.detail, rows[0].step.detail);
    // A role whose settings differ (here its timeout) is not the same agent: its own step.
    await checkAgents({ agents: { architect: same, programmer: { ...same, timeoutSec: 31 } }, secretEnv: {}, runtime, stepTimeoutMs: 30_000 });
    assert.equal(await fs.readFile(ran, 'utf8'), 'step\n'.repeat(3), 'a step for each role');
  });

  test("a failed step's reason is what the agent said, not the closing tag of its usage report", async () => {
    const agent = path.join(tmp, 'confused.py');
    await fs.writeFile(
      agent,
      [
        'import sys',
        'print("confused: this prompt names no summary.jsonl", flush=True)',
        'sys.stderr.write("<Execution Info>\\n{\\"tokenUsage\\": {\\"input\\": 9, \\"output\\": 0}}\\n</Execution Info>\\n")',
        'sys.exit(2)',
        '',
      ].join('\n'),
    );
    const agents: Record<'architect' | 'programmer', AgentSettings> = {
      architect: { kind: 'custom', command: `python3 ${agent}`, timeoutSec: 30 },
      programmer: { kind: 'human' },
    };
    const [architect] = await checkAgents({ agents, secretEnv: {}, runtime, stepTimeoutMs: 30_000 });
    assert.equal(architect.ok, false);
    assert.match(architect.step.detail, /^exited with code 2 after [\d.]+ s: confused: this prompt names no summary\.jsonl$/);
    assert.equal(summarizeAgentChecks([architect]).lines[0], `- architect (custom: confused.py): cannot run yet. one real step: ${architect.step.detail}`);
    // Our own log lines and the usage block are never the reason; an error line wins over the last line.
    const usageBlock = 'sys.stderr.write("<Execution Info>\\n{}\\n</Execution Info>\\n")';
    const quota = path.join(tmp, 'quota.py');
    await fs.writeFile(quota, ['import sys', 'print("starting\\nError: quota\\nbye", flush=True)', usageBlock, 'sys.exit(2)', ''].join('\n'));
    const silent = path.join(tmp, 'silent.py');
    await fs.writeFile(silent, ['import sys', usageBlock, 'sys.exit(2)', ''].join('\n'));
    const [saidError, saidNothing] = await checkAgents({
      agents: {
        architect: { kind: 'custom', command: `python3 ${quota}`, timeoutSec: 30 },
        programmer: { kind: 'custom', command: `python3 ${silent}`, timeoutSec: 30 },
      },
      secretEnv: {},
      runtime,
      stepTimeoutMs: 30_000,
    });
    assert.match(saidError.step.detail, /^exited with code 2 after [\d.]+ s: Error: quota$/);
    assert.match(saidNothing.step.detail, /^exited with code 2 after [\d.]+ s: no output$/);
  });

  test("a CLI put on the PATH by the role's env setting is found, asked its version and run there, as the run finds it", async () => {
    const qwen = await fakeCli('qwen');
    const bin = path.dirname(qwen.file);
    // Not on this process's PATH: only the setting's PATH holds it (as with /opt/qwen/bin).
    assert.equal((await findProgram('qwen', process.cwd(), process.env.PATH ?? '')).path, undefined, 'no qwen on the test PATH');
    const agents: Record<'architect' | 'programmer', AgentSettings> = {
      architect: { kind: 'preset', preset: 'qwen', env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }, timeoutSec: 30 },
      programmer: { kind: 'preset', preset: 'qwen', timeoutSec: 30 },
    };
    const [architect, programmer] = await checkAgents({ agents, secretEnv: {}, runtime, stepTimeoutMs: 30_000 });
    assert.equal(architect.executable.mark, 'ok', JSON.stringify(architect.executable));
    assert.equal(architect.executable.detail, `${qwen.file} · 9.8.7`);
    // Its step ran that same program (which fails on purpose: it only knows --version).
    assert.match(architect.step.detail, /^exited with code 3/);
    assert.match(await fs.readFile(qwen.ran, 'utf8'), /--output-format stream-json/);
    // Without the setting's PATH, nothing is found, and the cell says where it looked.
    assert.equal(programmer.executable.mark, 'fail');
    assert.match(programmer.executable.detail, /^"qwen" was not found on PATH: /);
  });
});
