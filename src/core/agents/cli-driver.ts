// Runs a CLI agent (a preset or the user's own command) for one try: writes the prompt
// file, runs the argv through the Runtime (no shell; the whole tree is killed on timeout or
// cancel), streams and logs the output, and reads token usage from it.
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Mount, Runtime, RunResult } from '../runtime/runtime';
import { SpawnError } from '../runtime/spawn-error';
import { UserError } from '../util/errors';
import type { AgentCommand, CommandContext } from './agent-command';
import type { AgentDriver, AgentRole, AgentRunRequest, AgentRunResult, AgentSettings, AgentUsage } from './agent-driver';
import { formatCommandLine, quoteWord, tokenizeCommand } from '../util/argv-tokenizer';
import { buildCustomCommand } from './custom-command';
import { buildPresetCommand } from './preset-command';
import { PRESET_INFO } from './presets';
import { SecretMask, StreamMask } from '../util/secret-mask';
import { agentSecrets } from './agent-settings';
import { lastWords, parseUsage, reportedError } from './agent-output';
import { copyLogin, homeEnvironment, writeHomeFiles } from './agent-home';
import { ENDPOINT_KEY_ENV, type Endpoint } from './endpoint/endpoint';
import { DEFAULT_MODEL_ACCESS, type ModelAccess } from './model-access';
import { callsFileBeside, describeNetwork, openModelRoute, withoutKeys, withWire, wireFooter, type ModelRoute } from './model-route';
import { keysForTry } from './key-rule';
import type { TryWireSummary } from '../gateway/try-summary';
import { presetPermissions, presetSetup } from './preset-setup';
import { WholeLines } from '../util/whole-lines';

export type CliAgentSettings = Exclude<AgentSettings, { kind: 'human' }>;

/** Where an agent in a container finds the task's app/ folder and its prompt (the reference's /app). */
export const CONTAINER_APP_DIR = '/app';
export const CONTAINER_PROMPT_DIR = '/sweci/prompt';
export const CONTAINER_HOME_DIR = '/sweci/home';

/** Where agents run: this machine, and (when the task runs in Docker) containers from its image. */
export interface AgentRuntimes {
  host: Runtime;
  container?: Runtime;
  /** How agents reach their model (sweci.agents.network, the gateway's bounds, prices, budgets); default DEFAULT_MODEL_ACCESS. */
  model?: ModelAccess;
}

/** The runtime for a role's settings; a UserError when it wants a container and the task has none. */
export function runtimeForAgent(settings: CliAgentSettings, runtimes: AgentRuntimes, role: AgentRole): Runtime {
  if ((settings.runIn ?? 'host') === 'host') return runtimes.host;
  if (!runtimes.container) {
    throw new UserError(
      `sweci.${role}.runIn is "container", but this task runs on this machine (no Docker image, or no engine answered). Set sweci.runtime to "docker" with an image, or set sweci.${role}.runIn to "host".`,
    );
  }
  return runtimes.container;
}

export class CliAgentDriver implements AgentDriver {
  readonly label: string;

  get isolation(): Runtime['isolation'] {
    return this.runtime.isolation;
  }

  get maxTokensPerStep(): number {
    return this.access.maxTokensPerStep;
  }

  get maxCallsBytesPerTry(): number {
    return this.access.maxCallsBytesPerTry;
  }

  get minFreeDiskBytes(): number {
    return this.access.minFreeDiskBytes;
  }

  get replays(): boolean {
    return this.access.replay !== undefined;
  }

  constructor(
    private readonly settings: CliAgentSettings,
    private readonly runtime: Runtime,
    private readonly access: ModelAccess = DEFAULT_MODEL_ACCESS,
  ) {
    this.label = settings.kind === 'preset' ? PRESET_INFO[settings.preset].label : customLabel(settings.command);
  }

  /** The argv for one try (exposed so the UI can show what will run). */
  buildCommand(ctx: CommandContext): AgentCommand {
    const s = this.settings;
    return s.kind === 'preset' ? buildPresetCommand(s.preset, ctx, s.executable) : buildCustomCommand({ command: s.command, promptVia: s.promptVia }, ctx);
  }

  async assertStartable(role: AgentRole, cwd: string, searchPath: string): Promise<void> {
    // In a container the program is the image's: the first try tells.
    if (this.runtime.kind !== 'local') return;
    const command = agentProgram(this.settings, role, cwd);
    const missing = await missingProgram(command, cwd, searchPath);
    if (missing) throw agentStartError(this.settings, role, command, missing === 'ENOENT' ? 'was not found' : 'is not executable');
  }

  async run(req: AgentRunRequest): Promise<AgentRunResult> {
    // The agent sees app/ (at /app in a container) and its prompt file read-only beside it; a
    // sandbox shows them at their own paths and hides the rest of the task (req.confine).
    const mounts: Mount[] = [
      { source: path.resolve(req.cwd), target: CONTAINER_APP_DIR },
      { source: path.resolve(req.promptFile), target: `${CONTAINER_PROMPT_DIR}/${path.basename(req.promptFile)}`, readOnly: true },
      // Its private home: confined, a size-limited copy in memory that nothing outlives (scratch-folders.ts).
      ...(req.homeDir ? [{ source: path.resolve(req.homeDir), target: CONTAINER_HOME_DIR, scratch: true }] : []),
      // Bound after app/, so they cover it: seen where they are, never written.
      ...(await realEntries(req.readOnly ?? [])).map((p) => ({
        source: path.resolve(p),
        target: path.posix.join(CONTAINER_APP_DIR, ...path.relative(req.cwd, p).split(path.sep)),
        readOnly: true,
      })),
    ];
    const cwd = this.runtime.pathIn(mounts, req.cwd);
    const promptFile = this.runtime.pathIn(mounts, req.promptFile);
    const confined = this.runtime.isolation !== 'none';
    const s = this.settings;
    // Its model through the gateway (a token for a key, no network but the gateway when confined).
    const stopper = new AbortController();
    let stopped: string | undefined;
    const route = await openModelRoute({
      settings: s,
      role: req.role,
      env: { ...req.env, ...(req.keys ?? {}) },
      confined,
      inContainer: this.runtime.isolation === 'container',
      access: this.access,
      callsFile: req.callsFile ?? callsFileBeside(req.logFile),
      ...(req.at ? { at: req.at } : {}),
      ...(req.stepBudget ? { stepBudget: req.stepBudget } : {}),
      onStop: (reason) => {
        stopped = reason;
        stopper.abort();
      },
    });
    let wire: TryWireSummary | undefined;
    try {
      const result = await this.runRouted(req, {
        mounts,
        cwd,
        promptFile,
        confined,
        route,
        signal: AbortSignal.any([stopper.signal, ...(req.signal ? [req.signal] : [])]),
      });
      wire = route.gatewayTry ? await route.gatewayTry.close() : undefined;
      // A custom agent that called no model did not use the gateway (a scripted agent): its own report stands.
      const used = wire && (wire.calls > 0 || s.kind === 'preset') ? wire : undefined;
      if (used) await fs.appendFile(req.logFile, wireFooter(used, stopped)).catch(() => undefined);
      return withWire(result, used, route, stopped, req.signal?.aborted === true);
    } finally {
      if (!wire) await route.gatewayTry?.close();
    }
  }

  private async runRouted(
    req: AgentRunRequest,
    r: { mounts: Mount[]; cwd: string; promptFile: string; confined: boolean; route: ModelRoute; signal: AbortSignal },
  ): Promise<AgentRunResult> {
    const { mounts, cwd, promptFile, confined } = r;
    const s = this.settings;
    const endpoint = r.route.endpoint;
    const cmd = this.buildCommand({
      role: req.role,
      prompt: req.prompt,
      promptFile,
      cwd,
      model: s.model,
      extraArgs: s.extraArgs,
      confined,
      endpoint: endpoint !== undefined,
    });
    const env = await this.environment(req, cwd, confined, endpoint, r.route);
    // Secrets are what the request brings (settings env, stored keys), what the settings hold
    // (a key on the command line), the real key and the try's token; the home's paths and the
    // preset's switches are not, and stay readable in the log.
    const redactor = new SecretMask([...Object.values(req.env), ...Object.values(req.keys ?? {}), ...agentSecrets(s), ...r.route.secrets]);
    const command = redactor.mask(displayCommand(cmd, req));

    await fs.mkdir(path.dirname(req.promptFile), { recursive: true });
    await fs.writeFile(req.promptFile, req.prompt);
    if (!(await isDirectory(req.cwd))) {
      throw new UserError(`Cannot run the ${req.role}: its working folder ${req.cwd} does not exist. Check the task out again.`);
    }

    const log = await LogFile.open(req.logFile);
    const started = new Date();
    try {
      await log.write(
        redactor.mask(
          [
            `# SWE-CI agent run`,
            `# agent:   ${this.label}`,
            `# role:    ${req.role}`,
            `# command: ${command}`,
            `# cwd:     ${req.cwd}${cwd !== req.cwd ? ` (seen as ${cwd} in ${this.runtime.description})` : ''}`,
            `# prompt:  ${req.promptFile} (${describePromptVia(cmd.promptVia)})`,
            `# env:     ${Object.keys(env).sort().join(', ') || '(none added)'}${Object.keys(env).length ? ' (values hidden)' : ''}`,
            ...(endpoint ? [`# endpoint: ${endpoint.url} (${endpoint.protocol}, SWE-CI's gateway with a key of this try's own)`] : []),
            `# network: ${describeNetwork(r.route.networkLabel)}`,
            ...(r.route.replayNote ? [`# replay:  ${r.route.replayNote}`] : []),
            ...(s.kind === 'preset' ? [`# allowed: ${presetPermissions(s.preset, confined)}`] : []),
            `# timeout: ${Math.round(req.timeoutMs / 1000)} s`,
            `# started: ${started.toISOString()}`,
            '',
            '',
          ].join('\n'),
        ),
      );
      // The log takes whole lines of each stream: stdout and stderr come through two pipes, and a
      // stderr line landing inside a half-written stdout line would break an event of the CLI's
      // stream (and its transcript). A line longer than this goes in as it is.
      const whole = { stdout: new WholeLines((t) => log.append(t), MAX_HELD_LINE), stderr: new WholeLines((t) => log.append(t), MAX_HELD_LINE) };
      const streams = {
        stdout: new StreamMask(redactor, (t) => this.emit(whole.stdout, req, t, 'stdout')),
        stderr: new StreamMask(redactor, (t) => this.emit(whole.stderr, req, t, 'stderr')),
      };
      let result: RunResult;
      try {
        // A sandbox reports a missing program only as exit code 1, try after try: look it up first.
        if (this.runtime.kind === 'local') {
          const missing = await missingProgram(cmd.command, req.cwd, env.PATH ?? process.env.PATH ?? '');
          if (missing) throw new SpawnError(`Cannot run "${cmd.command}"`, cmd.command, missing);
        }
        result = await this.runtime.run({
          command: cmd.command,
          args: cmd.args,
          cwd,
          mounts,
          ...(req.confine ? { confine: { ...req.confine, ...(r.route.network ? { network: r.route.network } : {}) } } : {}),
          env,
          // Nothing of the harness's own environment (its keys and tokens among them): only what
          // starting a program needs (clean-env.ts), then the agent's home, endpoint and named keys.
          cleanEnv: true,
          stdin: cmd.stdin,
          timeoutMs: req.timeoutMs,
          signal: r.signal,
          onOutput: (chunk, stream) => streams[stream].push(chunk),
        });
      } catch (err) {
        const userError = this.startError(err, cmd.command, req);
        await log.write(`\n# could not start: ${userError.message}\n`);
        throw userError;
      }
      streams.stdout.flush();
      streams.stderr.flush();
      whole.stdout.flush();
      whole.stderr.flush();

      const usage = parseUsage(cmd.usageFormat, result.stdout, result.stderr);
      const error = result.timedOut || result.cancelled ? undefined : reportedError(cmd.usageFormat, result.stdout, result.stderr);
      await log.write(redactor.mask(footer(result, usage, error)));
      const failedSilently = !error && !result.timedOut && !result.cancelled && result.exitCode !== 0;
      const said = failedSilently ? (lastWords(result.stderr) ?? lastWords(result.stdout)) : undefined;
      return {
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        cancelled: result.cancelled,
        durationMs: result.durationMs,
        ...(usage ? { usage } : {}),
        command,
        logFile: req.logFile,
        ...(error ? { reportedError: redactor.mask(error) } : {}),
        ...(said ? { lastWords: redactor.mask(said) } : {}),
        ...(result.limitReached ? { limitReached: result.limitReached } : {}),
        ...(s.kind === 'preset' ? { permissions: presetPermissions(s.preset, confined) } : {}),
      };
    } finally {
      await log.close();
    }
  }

  /**
   * The agent's environment: the request's (settings env, secrets), then its private home and
   * what its preset writes there for the endpoint. A custom agent gets the endpoint as
   * SWECI_BASE_URL, SWECI_API_KEY and SWECI_MODEL.
   */
  private async environment(
    req: AgentRunRequest,
    cwd: string,
    confined: boolean,
    endpoint: Endpoint | undefined,
    route: ModelRoute,
  ): Promise<Record<string, string>> {
    const s = this.settings;
    // Through the gateway the agent holds no real key: not the endpoint's, nor any other stored one.
    // Otherwise only the keys its role names, and only where it calls its model itself (key-rule.ts).
    const env: Record<string, string> = route.gatewayTry
      ? withoutKeys(req.env, route.secrets)
      : { ...req.env, ...keysForTry(req.keys ?? {}, s, route.networkLabel) };
    if (!req.homeDir) return env;
    const home = this.runtime.pathIn([{ source: path.resolve(req.homeDir), target: CONTAINER_HOME_DIR }], req.homeDir);
    Object.assign(env, homeEnvironment(home));
    if (s.kind === 'custom') {
      if (endpoint) Object.assign(env, { SWECI_BASE_URL: endpoint.url, [ENDPOINT_KEY_ENV]: endpoint.key });
      if (s.model) env.SWECI_MODEL = s.model;
      return env;
    }
    if (!endpoint) await copyLogin(s.preset, os.homedir(), req.homeDir);
    const setup = presetSetup(s.preset, { ...(endpoint ? { endpoint } : {}), ...(s.model ? { model: s.model } : {}), confined, cwd, home });
    await writeHomeFiles(req.homeDir, setup.files);
    return Object.assign(env, setup.env);
  }

  private emit(log: WholeLines, req: AgentRunRequest, text: string, stream: 'stdout' | 'stderr'): void {
    log.push(text);
    if (req.onOutput) {
      try {
        req.onOutput(text, stream);
      } catch {
        // A faulty listener must not break the run or lose its log.
      }
    }
  }

  /** A missing executable names the CLI to install or the setting to change (a real key). */
  private startError(err: unknown, command: string, req: AgentRunRequest): Error {
    if (!(err instanceof SpawnError)) return err instanceof Error ? err : new Error(String(err));
    return agentStartError(
      this.settings,
      req.role,
      command,
      err.code === 'ENOENT' ? 'was not found' : err.code === 'EACCES' ? 'is not executable' : `could not start (${err.message})`,
      err,
    );
  }
}

/** The paths that are a file or a folder themselves: a link would bind whatever it points at. */
async function realEntries(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const st = await fs.lstat(p).catch(() => undefined);
    if (st && (st.isFile() || st.isDirectory())) out.push(p);
  }
  return out;
}

/**
 * Why an agent did not start and which setting fixes it: for a preset, the role's agent
 * choice (presets have no executable setting); for a custom agent, its command line.
 */
function agentStartError(settings: CliAgentSettings, role: AgentRole, command: string, problem: string, cause?: unknown): UserError {
  if (settings.kind === 'preset') {
    const info = PRESET_INFO[settings.preset];
    const setting = `${role}.agent`;
    return new UserError(
      `Cannot run ${info.label} as the ${role}: "${command}" ${problem}. ` +
        `Install it (${info.install}) so that "${command}" is on the PATH VS Code sees, or choose another agent in the setting sweci.${setting}.`,
      { cause, setting },
    );
  }
  const setting = `${role}.customCommand`;
  return new UserError(
    `Cannot run the custom ${role} agent: "${command}" ${problem}. ` +
      `Fix the setting sweci.${setting} (it runs without a shell: name a program, not shell syntax).`,
    { cause, setting },
  );
}

/** The program a role's agent starts (its command line's first word), as a try runs it. */
export function agentProgram(settings: CliAgentSettings, role: AgentRole, cwd: string): string {
  const ctx: CommandContext = {
    role,
    prompt: '',
    promptFile: 'prompt.md',
    cwd,
    model: settings.model,
    extraArgs: settings.extraArgs,
    confined: false,
    endpoint: false,
  };
  return settings.kind === 'preset'
    ? buildPresetCommand(settings.preset, ctx, settings.executable).command
    : buildCustomCommand({ command: settings.command, promptVia: settings.promptVia }, ctx).command;
}

/** The PATH a try looks its program up in: the role's `env` setting's, else this process's. */
export function agentSearchPath(settings: CliAgentSettings): string {
  return settings.env?.PATH ?? process.env.PATH ?? '';
}

/**
 * Where `program` is on this machine, or why it cannot start ('ENOENT' or 'EACCES') as far as a
 * PATH lookup tells. A name with a slash is taken relative to `cwd`.
 */
export async function findProgram(program: string, cwd: string, searchPath: string): Promise<{ path?: string; problem?: 'ENOENT' | 'EACCES' }> {
  const candidates = program.includes('/')
    ? [path.resolve(cwd, program)]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((d) => path.join(d, program));
  let found = false;
  for (const file of candidates) {
    try {
      if (!(await fs.stat(file)).isFile()) continue;
    } catch {
      continue;
    }
    found = true;
    try {
      await fs.access(file, fsConstants.X_OK);
      return { path: file };
    } catch {
      // not executable here; another PATH entry may be
    }
  }
  return { problem: found ? 'EACCES' : 'ENOENT' };
}

async function missingProgram(program: string, cwd: string, searchPath: string): Promise<'ENOENT' | 'EACCES' | undefined> {
  return (await findProgram(program, cwd, searchPath)).problem;
}

/** The driver for a role's settings. The human role is played in the editor, not by a driver. */
export function createDriver(settings: AgentSettings, runtimes: AgentRuntimes, role: AgentRole = 'programmer'): CliAgentDriver {
  if (settings.kind === 'human') {
    throw new Error('The human role has no agent driver: the loop waits for the user to submit instead.');
  }
  return new CliAgentDriver(settings, runtimeForAgent(settings, runtimes, role), runtimes.model);
}

/** A shell-equivalent of what runs, for people to read or paste; never holds the prompt text. */
function displayCommand(cmd: AgentCommand, req: AgentRunRequest): string {
  if (cmd.promptVia === 'argv') {
    // The prompt element shows as a reference to its file.
    const promptRef = `"$(cat ${quoteWord(req.promptFile)})"`;
    const words = cmd.args.map((a) => (a === req.prompt || a === ` ${req.prompt}` ? promptRef : quoteWord(a)));
    return [quoteWord(cmd.command), ...words].join(' ');
  }
  const line = formatCommandLine(cmd.command, cmd.args);
  return cmd.stdin !== undefined ? `${line} < ${quoteWord(req.promptFile)}` : line;
}

function describePromptVia(via: AgentCommand['promptVia']): string {
  return via === 'stdin' ? 'on stdin' : via === 'file' ? 'by file path' : 'as one argument';
}

function footer(r: RunResult, usage: AgentUsage | undefined, error: string | undefined): string {
  const how = r.cancelled
    ? 'cancelled (process tree killed)'
    : r.timedOut
      ? 'timed out (process tree killed)'
      : r.exitCode !== null
        ? `exit code ${r.exitCode}`
        : `killed by ${r.signal ?? 'a signal'}`;
  const used = usage
    ? [
        usage.inputTokens !== undefined ? `${usage.inputTokens} input tokens` : undefined,
        usage.outputTokens !== undefined ? `${usage.outputTokens} output tokens` : undefined,
        usage.costUsd !== undefined ? `$${usage.costUsd}` : undefined,
      ]
        .filter(Boolean)
        .join(', ')
    : 'not reported';
  return `\n\n# ended:   ${how} after ${(r.durationMs / 1000).toFixed(1)} s\n# usage:   ${used}\n${error ? `# error:   ${error}\n` : ''}`;
}

const INTERPRETERS = /^(python[\d.]*|node|bash|sh|zsh|ruby|perl|deno|bun|uv|npx|pipx)$/;

/** A short name for views: the program's file name, looking past an interpreter ("python3 x/agent.py" → "custom: agent.py"). */
export function customLabel(command: string): string {
  let words: string[];
  try {
    words = tokenizeCommand(command);
  } catch {
    words = command.trim().split(/\s+/);
  }
  const base = (w: string | undefined) => (w ?? '').split(/[\\/]/).pop() ?? '';
  const first = base(words[0]);
  const program = INTERPRETERS.test(first) && words[1] && !words[1].startsWith('-') ? base(words[1]) : first;
  return `custom: ${program || 'command'}`;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** How long a line without its end may be held back from the log. */
const MAX_HELD_LINE = 1024 * 1024;

/** The log on disk, written in arrival order; appends from output callbacks are queued. */
class LogFile {
  private queue: Promise<void> = Promise.resolve();
  private failed = false;

  private constructor(private readonly handle: fs.FileHandle) {}

  static async open(file: string): Promise<LogFile> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    return new LogFile(await fs.open(file, 'w'));
  }

  append(text: string): void {
    this.queue = this.queue.then(async () => {
      if (this.failed) return;
      try {
        await this.handle.write(text);
      } catch {
        // A full disk must not kill the agent run; the output channel still has it.
        this.failed = true;
      }
    });
  }

  async write(text: string): Promise<void> {
    this.append(text);
    await this.queue;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }
}
