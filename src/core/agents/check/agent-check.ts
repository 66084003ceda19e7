// Check Agents: before a 20-iteration run, does each role's agent work? For each role: the
// executable found and its version, the endpoint answering and taking the key, and one real
// step on a one-file scratch task (the file written, usage parsed), run the way a loop step runs
// (same driver, private home, confined when the runtime confines).
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Runtime } from '../../runtime/runtime';
import { freshHome, homeEnvironment } from '../agent-home';
import type { AgentRole, AgentSettings, AgentUsage } from '../agent-driver';
import { roleLabel } from '../agent-summary';
import { agentProgram, agentSearchPath, CliAgentDriver, findProgram } from '../cli-driver';
import { cleanEnvironment } from '../../runtime/clean-env';
import { checkEndpoint, missingModel, type EndpointCheck } from '../endpoint/endpoint-check';
import { configuredEndpoint, ENDPOINT_KEY_ENV } from '../endpoint/endpoint';
import { PRESET_INFO } from '../presets';
import { lastWords } from '../agent-output';
import type { ModelAccess } from '../model-access';
import { errorMessage } from '../../util/errors';

export type CheckMark = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckCell {
  mark: CheckMark;
  detail: string;
}

export interface AgentCheckRow {
  role: AgentRole;
  agent: string;
  executable: CheckCell;
  endpoint: CheckCell;
  step: CheckCell;
  /** Every cell ok or a warning. */
  ok: boolean;
}

export interface AgentCheckOptions {
  agents: Record<AgentRole, AgentSettings>;
  /** API keys, SWECI_API_KEY among them. */
  secretEnv: Record<string, string>;
  /** Where the step runs (the host runtime: sandboxed when it can be). */
  runtime: Runtime;
  /** How the agents reach their model (the gateway; sweci.agents.network). */
  model?: ModelAccess;
  /** Per step; default 300 s. */
  stepTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

/** The words the scratch prompt asks for; the brain of the conformance tests answers it too. */
export const CHECK_PROMPT_TITLE = '# SWE-CI agent check';
export const CHECK_FILE = 'sweci-check.txt';

export function checkPrompt(appDir: string): string {
  return [
    CHECK_PROMPT_TITLE,
    '',
    `You are in the folder \`${appDir}\`, which holds one file, \`${appDir}/notes.txt\`.`,
    `Create the file \`${appDir}/${CHECK_FILE}\` whose whole content is the single line: ok`,
    'Do nothing else, then say that you are done.',
    '',
  ].join('\n');
}

/** A one-file scratch task (`app/notes.txt`) and an empty private home, in a new temp folder. */
export async function checkScratch(): Promise<{ dir: string; appDir: string; home: string }> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-agent-check-')));
  const appDir = path.join(dir, 'app');
  const home = path.join(dir, 'home');
  await fs.mkdir(appDir, { recursive: true });
  await fs.writeFile(path.join(appDir, 'notes.txt'), 'A scratch folder for SWE-CI: Check Agents.\n');
  await freshHome(home);
  return { dir, appDir, home };
}

const VERSION_TIMEOUT_MS = 120_000;

/**
 * The program's first line of `--version`, in the environment a try gives it (clean-env.ts's
 * allow-list, the role's `env` setting) with a private home of its own (HOME, the XDG folders,
 * TMPDIR), removed after: some CLIs write state even then (gemini a projects file, opencode its
 * data, state and cache folders), and the user's home is never theirs to write. Two minutes:
 * a Node CLI that loads its whole bundle can take over 30 s on a busy 2-core machine (it did,
 * under the suite's load check), and only a program that hangs ever waits that long.
 */
async function version(command: string, env: Record<string, string>): Promise<string | undefined> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-version-home-'));
  try {
    await freshHome(home);
    return await new Promise((resolve) => {
      execFile(
        command,
        ['--version'],
        { timeout: VERSION_TIMEOUT_MS, env: { ...cleanEnvironment(process.env), ...env, ...homeEnvironment(home) } },
        (err, stdout, stderr) => {
          const line = `${stdout}\n${stderr}`
            .split('\n')
            .map((l) => l.trim())
            .find(Boolean);
          resolve(err && !line ? undefined : line?.slice(0, 80));
        },
      );
    });
  } finally {
    await fs.rm(home, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The program a try would start, looked up as the try looks it up (agentProgram, in the PATH of
 * the role's `env` setting, else VS Code's): a check that searched elsewhere would call a CLI the
 * run finds "not found", or the other way round. A custom command's program is not asked its
 * version: `--version` may mean anything to it.
 */
async function executableCell(
  role: AgentRole,
  s: Exclude<AgentSettings, { kind: 'human' }>,
  versions: Map<string, Promise<string | undefined>>,
): Promise<CheckCell> {
  if (s.runIn === 'container') return { mark: 'skip', detail: "runs in the task's container: the image's program" };
  const command = agentProgram(s, role, process.cwd());
  const searchPath = agentSearchPath(s);
  const found = await findProgram(command, process.cwd(), searchPath);
  if (!found.path) {
    const where = s.env?.PATH !== undefined ? `on the PATH of sweci.${role}.env` : 'on PATH';
    const problem = found.problem === 'EACCES' ? 'is not executable' : `was not found ${where}`;
    const fix = s.kind === 'preset' ? PRESET_INFO[s.preset].install : `fix sweci.${role}.customCommand`;
    return { mark: 'fail', detail: `"${command}" ${problem}: ${fix}` };
  }
  if (s.kind === 'custom') return { mark: 'ok', detail: `${found.path} (a custom command: its version is not asked)` };
  // Both roles on one program in one environment ask it once: a Node CLI's `--version` loads its
  // whole bundle, seconds each on a busy machine, and the answer cannot differ between the roles.
  const env = s.env ?? {};
  const key = JSON.stringify([found.path, env]);
  if (!versions.has(key)) versions.set(key, version(found.path, env));
  const v = await versions.get(key)!;
  return v ? { mark: 'ok', detail: `${found.path} · ${v}` } : { mark: 'warn', detail: `${found.path} · "--version" printed nothing` };
}

/**
 * Why a step failed, in the agent's own words from its log: the last line that speaks of an error,
 * else its last line. Our log's own lines ("# …") and a usage report (`<Execution Info>` … its
 * closing tag) are not the agent's words.
 */
function endpointCell(check: EndpointCheck): CheckCell {
  const mark: CheckMark = check.verdict === 'ok' ? 'ok' : check.verdict === 'answered' ? 'warn' : 'fail';
  return { mark, detail: check.detail };
}

function usageText(u: AgentUsage | undefined): string {
  if (!u) return 'usage not reported';
  const parts = [
    u.inputTokens !== undefined ? `${u.inputTokens} in` : undefined,
    u.outputTokens !== undefined ? `${u.outputTokens} out` : undefined,
    u.costUsd !== undefined ? `$${u.costUsd.toFixed(4)}` : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'usage not reported';
}

async function stepCell(role: AgentRole, s: Exclude<AgentSettings, { kind: 'human' }>, opts: AgentCheckOptions): Promise<CheckCell> {
  const { dir: scratch, appDir, home } = await checkScratch();
  try {
    const driver = new CliAgentDriver(s, opts.runtime, opts.model);
    const result = await driver.run({
      role,
      prompt: checkPrompt(appDir),
      promptFile: path.join(scratch, 'prompt', `${role}.prompt.md`),
      cwd: appDir,
      env: { ...(s.env ?? {}) },
      keys: opts.secretEnv,
      timeoutMs: opts.stepTimeoutMs ?? 300_000,
      logFile: path.join(scratch, 'prompt', `${role}.log`),
      homeDir: home,
      // Nothing to hide here, but the step is confined as a loop step is (presets then accept every action).
      confine: { hide: [] },
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const seconds = `${(result.durationMs / 1000).toFixed(1)} s`;
    const tail = async () => lastWords(await fs.readFile(result.logFile, 'utf8').catch(() => '')) ?? 'no output';
    if (result.cancelled) return { mark: 'fail', detail: 'cancelled' };
    if (result.timedOut) return { mark: 'fail', detail: `no answer within ${Math.round((opts.stepTimeoutMs ?? 300_000) / 1000)} s` };
    // What the gateway saw of its model calls decides, whatever the CLI printed or exited.
    if (result.wire?.failure) return { mark: 'fail', detail: `its model calls failed after ${seconds}: ${result.wire.failure}` };
    if (result.exitCode !== 0)
      return {
        mark: 'fail',
        detail: `exited with code ${result.exitCode} after ${seconds}${result.reportedError ? `: ${result.reportedError}` : `: ${await tail()}`}`,
      };
    if (result.reportedError) return { mark: 'fail', detail: `exited 0 but ${result.reportedError}` };
    const written = await fs.readFile(path.join(appDir, CHECK_FILE), 'utf8').catch(() => undefined);
    if (written === undefined) return { mark: 'fail', detail: `exited 0 after ${seconds} but did not write ${CHECK_FILE}` };
    if (written.trim() !== 'ok') return { mark: 'fail', detail: `wrote ${CHECK_FILE}, but not "ok": ${JSON.stringify(written.slice(0, 40))}` };
    const calls = result.wire ? `${result.wire.modelCalls} model call${result.wire.modelCalls === 1 ? '' : 's'} · ` : '';
    const usage = calls + usageText(result.usage);
    return {
      mark: result.usage ? 'ok' : 'warn',
      detail: `wrote ${CHECK_FILE} in ${seconds} · ${usage}${result.permissions ? ` · ${result.permissions}` : ''}`,
    };
  } catch (err) {
    return { mark: 'fail', detail: errorMessage(err) };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * One real step per distinct agent: both roles on the same settings (same program, model,
 * endpoint and env; the runtime and key are the check's) would make the same call, and the role
 * only names the step's files. A real CLI's step costs tokens and a minute on a busy machine.
 */
function sharedStep(
  steps: Map<string, Promise<CheckCell>>,
  role: AgentRole,
  s: Exclude<AgentSettings, { kind: 'human' }>,
  opts: AgentCheckOptions,
): Promise<CheckCell> {
  const key = JSON.stringify(s);
  if (!steps.has(key)) steps.set(key, stepCell(role, s, opts));
  return steps.get(key)!;
}

export async function checkAgents(opts: AgentCheckOptions): Promise<AgentCheckRow[]> {
  const rows: AgentCheckRow[] = [];
  const endpoints = new Map<string, Promise<EndpointCheck>>();
  const versions = new Map<string, Promise<string | undefined>>();
  const steps = new Map<string, Promise<CheckCell>>();
  for (const role of ['architect', 'programmer'] as const) {
    const s = opts.agents[role];
    if (s.kind === 'human') {
      const skip: CheckCell = { mark: 'skip', detail: 'played by you' };
      rows.push({ role, agent: 'human', executable: skip, endpoint: skip, step: skip, ok: true });
      continue;
    }
    opts.onProgress?.(`${role}: ${roleLabel(s)}`);
    const executable = await executableCell(role, s, versions);
    let endpoint: CheckCell = {
      mark: 'skip',
      detail: s.kind === 'preset' ? "no endpoint set: the CLI's own login" : 'no endpoint set: a custom command is given none',
    };
    // A custom command with a base URL is checked as a preset is: the run asks that endpoint too.
    const e = configuredEndpoint(s, opts.secretEnv[ENDPOINT_KEY_ENV]);
    if (e) {
      const id = `${e.protocol} ${e.url}`;
      if (!endpoints.has(id)) endpoints.set(id, checkEndpoint(e, opts.signal));
      endpoint = endpointCell(await endpoints.get(id)!);
    }
    // A preset that needs a model with its endpoint and has none would fail the step whatever the cells before it say.
    const noModel = missingModel(role, s);
    const step: CheckCell = noModel
      ? { mark: 'fail', detail: `not tried: ${noModel.message}` }
      : executable.mark === 'fail' || endpoint.mark === 'fail'
        ? { mark: 'skip', detail: 'not tried: fix the cells before it' }
        : await sharedStep(steps, role, s, opts);
    const ok = [executable, endpoint, step].every((c) => c.mark !== 'fail') && step.mark !== 'skip';
    rows.push({ role, agent: roleLabel(s), executable, endpoint, step, ok });
  }
  return rows;
}

const MARK: Record<CheckMark, string> = { ok: '✓', warn: '⚠', fail: '✗', skip: '–' };

/** The rows as a Markdown table, for the CLI and the editor. */
export function formatAgentChecks(rows: readonly AgentCheckRow[]): string {
  const cell = (c: CheckCell) => `${MARK[c.mark]} ${c.detail.replace(/\|/g, '\\|')}`;
  return [
    '| Role | Agent | Executable | Endpoint | One real step |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.role} | ${r.agent} | ${cell(r.executable)} | ${cell(r.endpoint)} | ${cell(r.step)} |`),
  ].join('\n');
}

const CELL_NAME = { executable: 'executable', endpoint: 'endpoint', step: 'one real step' } as const;

/** What the check says of each role in a few words, and of both: what a person reads first. */
export function summarizeAgentChecks(rows: readonly AgentCheckRow[]): { ok: boolean; headline: string; lines: string[] } {
  const agents = rows.filter((r) => r.agent !== 'human');
  const failed = rows.filter((r) => !r.ok);
  const headline =
    failed.length > 0
      ? `The ${failed.map((r) => r.role).join(' and ')} cannot run yet.`
      : agents.length === 0
        ? 'You play both roles: there is no agent to check.'
        : agents.length === rows.length
          ? 'Both agents can run.'
          : `The ${agents[0].role}'s agent can run.`;
  const lines = rows.map((r) => {
    if (r.agent === 'human') return `- ${r.role}: played by you`;
    if (!r.ok) {
      const cell = (['executable', 'endpoint', 'step'] as const).find((c) => r[c].mark === 'fail') ?? 'step';
      return `- ${r.role} (${r.agent}): cannot run yet. ${CELL_NAME[cell]}: ${r[cell].detail}`;
    }
    const warnings = (['executable', 'endpoint', 'step'] as const).filter((c) => r[c].mark === 'warn').map((c) => `${CELL_NAME[c]}: ${r[c].detail}`);
    return `- ${r.role} (${r.agent}): ready${warnings.length ? `, with a warning (${warnings.join('; ')})` : ''}`;
  });
  return { ok: failed.length === 0, headline, lines };
}
