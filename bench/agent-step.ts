// Benchmark: what the harness adds to one agent step with a real CLI. The same step — a real CLI
// (qwen by default) writing one file for the scripted model server, as SWE-CI: Check Agents asks —
// run two ways: `driver` through the product's driver (prompt file, private home with the
// preset's configuration, log, usage and error parsing, the bubblewrap sandbox), and `direct`
// as a bare spawn of the same argv and environment. farm-bench times them A B A B:
//
//   npm run compile
//   farm-bench -n 5 --timeout 900 -- unshare -n sh -c 'ip link set lo up && exec node out/bench/agent-step.js driver qwen' \
//     --vs "unshare -n sh -c 'ip link set lo up && exec node out/bench/agent-step.js direct qwen'"
//
// Each run starts its own model server on loopback (run it in a namespace with only lo, as above).
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { homeEnvironment, writeHomeFiles } from '../src/core/agents/agent-home';
import type { AgentPresetId } from '../src/core/agents/agent-driver';
import { checkPrompt, checkScratch, CHECK_FILE } from '../src/core/agents/check/agent-check';
import { CliAgentDriver } from '../src/core/agents/cli-driver';
import { resolveEndpoint } from '../src/core/agents/endpoint/endpoint';
import { buildPresetCommand } from '../src/core/agents/preset-command';
import { presetSetup } from '../src/core/agents/preset-setup';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { findBubblewrap } from '../src/core/runtime/sandbox';
import { ALL_ADAPTERS } from '../scripts/stand-in-model/adapters';
import { startModelServer } from '../scripts/stand-in-model/model-server';
import { taskBrain } from '../scripts/stand-in-model/task-brain';

const MODELS: Partial<Record<AgentPresetId, string>> = {
  'claude-code': 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  gemini: 'gemini-2.5-pro',
  qwen: 'qwen3-coder-plus',
  opencode: 'sweci-coder',
};
const BIN = path.resolve(__dirname, '..', '..', '.vscode-test', 'agents', 'node_modules', '.bin');

async function main(): Promise<void> {
  const [mode, presetArg] = process.argv.slice(2);
  const preset = (presetArg ?? 'qwen') as AgentPresetId;
  if ((mode !== 'driver' && mode !== 'direct') || !MODELS[preset])
    throw new Error('usage: agent-step.js driver|direct [claude-code|codex|gemini|qwen|opencode]');
  const model = MODELS[preset];
  const server = await startModelServer({ brain: taskBrain({ requirementXml: '', files: {} }), adapters: ALL_ADAPTERS });
  const { dir: scratch, appDir: app, home } = await checkScratch();
  try {
    const baseUrl = `${server.origin}/v1`;
    const env = { SWECI_API_KEY: 'sk-bench', PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` };
    if (mode === 'driver') {
      const bwrap = await findBubblewrap();
      const runtime = new LocalRuntime(bwrap ? { bwrap } : {});
      const driver = new CliAgentDriver({ kind: 'preset', preset, model, baseUrl }, runtime);
      const r = await driver.run({
        role: 'programmer',
        prompt: checkPrompt(app),
        promptFile: path.join(scratch, 'prompt', 'programmer.prompt.md'),
        cwd: app,
        env,
        timeoutMs: 300_000,
        logFile: path.join(scratch, 'prompt', 'programmer.log'),
        homeDir: home,
        confine: { hide: [] },
      });
      if (r.exitCode !== 0 || r.reportedError || r.wire?.failure) {
        const log = await fs.readFile(r.logFile, 'utf8').catch(() => '');
        throw new Error(`the step failed: ${r.exitCode} ${r.reportedError ?? r.wire?.failure ?? ''}\n${log.slice(-3000)}`);
      }
    } else {
      // The same argv, environment and home files the driver gives it, spawned bare.
      const endpoint = resolveEndpoint(preset, baseUrl, 'sk-bench');
      const setup = presetSetup(preset, { endpoint, model, confined: true, cwd: app, home });
      await writeHomeFiles(home, setup.files);
      const cmd = buildPresetCommand(preset, {
        role: 'programmer',
        prompt: checkPrompt(app),
        promptFile: path.join(scratch, 'p.md'),
        cwd: app,
        model,
        confined: true,
        endpoint: true,
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(cmd.command, cmd.args, {
          cwd: app,
          env: { ...process.env, ...env, ...homeEnvironment(home), ...setup.env },
          stdio: [cmd.stdin !== undefined ? 'pipe' : 'ignore', 'ignore', 'ignore'],
        });
        child.on('error', reject);
        child.on('exit', resolve);
        if (cmd.stdin !== undefined) child.stdin!.end(cmd.stdin);
      });
      if (code !== 0) throw new Error(`the CLI exited with ${code}`);
    }
    const written = await fs.readFile(path.join(app, CHECK_FILE), 'utf8');
    if (written.trim() !== 'ok') throw new Error(`the CLI wrote ${JSON.stringify(written)}`);
  } finally {
    await server.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
