// One role's step of an iteration: an agent with its tries, timeouts and logs, or a human
// who submits. Around it: what the step changed outside app/code, and (architect agents) code
// changes thrown away, so each role can only produce what the protocol lets it produce.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { AgentRole, AgentRunResult, AgentUsage } from '../agents/agent-driver';
import { loadRequirementContext } from '../requirement/requirement-context';
import { validateRequirementFile } from '../requirement/validate-requirement';
import { AbortError, UserError, throwIfAborted } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { isTestArtifact } from '../workspace/restore-tests';
import { agentConfinement } from '../runtime/task-confinement';
import { freshHome } from '../agents/agent-home';
import { removeLeftovers } from './app-carry-over';
import { type TaskRecord } from '../workspace/layout';
import type { CodeRepo } from './code-repo';
import type { RoleStepRecord } from './iteration-record';
import type { StepDone } from './journal';
import type { HumanStep, LoopEvent, RoleSetup } from './loop-types';
import { renderDefaultPrompt } from './default-prompt';
import { diffSnapshots, snapshotOutside } from './outside-changes';
import { DEFAULT_AGENT_MAX_TRIES, DEFAULT_AGENT_TIMEOUT_SEC } from '../agents/agent-settings';
import { ARCHIVE } from './run-store';
import { Budget, BudgetExhaustedError } from '../gateway/budget';
import { belowFloor, DEFAULT_MIN_FREE_DISK_MB, DISK_NEARLY_FULL, DiskNearlyFullError } from '../util/free-space';
import type { TaskFolder } from '../workspace/task-folder';

export interface RoleStepContext {
  task: TaskFolder;
  run: string;
  iteration: number;
  role: AgentRole;
  setup: RoleSetup;
  humanStep?: HumanStep;
  signal: AbortSignal;
  emit: (event: LoopEvent) => void;
  /** runs/<run>/pending: logs and the prompt go here. */
  pendingDir: string;
  repo: CodeRepo;
  branch: string;
  /** The commit the iteration started from: failed tries reset to it. */
  startCommit: string;
  /** The step ran before and was interrupted: whatever it left in app/code is not trusted. */
  restarted: boolean;
  record: TaskRecord;
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

/** Runs the role's step to success, or throws (UserError after the last failed try, AbortError on cancel). */
export async function runRoleStep(ctx: RoleStepContext): Promise<StepDone> {
  return ctx.setup.settings.kind === 'human' ? runHuman(ctx) : runAgent(ctx);
}

function why(result: AgentRunResult, timeoutSec: number): string | undefined {
  if (result.timedOut) return `did not finish within ${timeoutSec} s and was stopped`;
  // What the wire saw decides, whatever the CLI printed or exited: a swallowed error, an empty answer.
  if (result.wire?.failure) {
    // No call at all: the CLI most likely died first, and how it ended is the reason to read.
    const ended = result.wire.modelCalls === 0 ? howItFailed(result) : undefined;
    return `its model calls failed: ${result.wire.failure}${ended ? ` (it ${ended})` : ''}`;
  }
  const limit = result.limitReached ? `: ${result.limitReached}` : '';
  if (result.exitCode === null) return `was killed by a signal${limit}`;
  if (result.exitCode !== 0) return `exited with code ${result.exitCode}${result.reportedError ? ` (${result.reportedError})` : ''}${limit}`;
  // Exit 0 is no proof of work: the CLI's own output may say the model call failed.
  if (result.reportedError) return `exited 0 but ${result.reportedError}`;
  return undefined;
}

/** How a CLI that did not end well ended, with the line of its output that says why; undefined after exit 0. */
function howItFailed(result: AgentRunResult): string | undefined {
  if (result.exitCode === 0) return undefined;
  const said = result.reportedError ?? result.lastWords;
  return `${result.exitCode === null ? 'was killed by a signal' : `exited with code ${result.exitCode}`}${said ? `: ${said}` : ''}`;
}

/**
 * A custom command that cannot find its own files most likely imports or reads beside the script
 * it names: the sandbox shows only the absolute paths on its command line and the readable list.
 */
function sandboxHint(settings: RoleSetup['settings'], said: string): string {
  if (settings.kind !== 'custom' || !/ModuleNotFoundError|No module named|No such file or directory|Permission denied|can't open file/.test(said)) return '';
  return ' The sandbox shows a custom command only the absolute paths on its command line and sweci.sandboxReadablePaths: list the folder its own files are in there.';
}

/**
 * The language server's validation of what the Architect wrote: errors fail the try (and say
 * why); warnings (a location naming no file, an unknown test) are only reported.
 */
async function checkRequirement(task: TaskFolder, human = false): Promise<{ problem?: string; warnings?: string }> {
  const file = task.requirementFile;
  const checked = await validateRequirementFile(file, await loadRequirementContext(task));
  // A human given the skeleton who submits its hints unchanged pressed Submit too early.
  const unwritten = human ? checked.warnings.filter((w) => w.code === 'placeholder-field') : [];
  const errors = [...checked.errors, ...unwritten];
  const warnings = checked.warnings.filter((w) => !unwritten.includes(w));
  const name = path.basename(file);
  const say = (list: typeof errors) =>
    list
      .slice(0, 3)
      .map((e) => (e.code === 'missing-file' ? `wrote no ${name}` : `${name} line ${e.line}: ${e.message}`))
      .join('; ') + (list.length > 3 ? ` (and ${list.length - 3} more)` : '');
  if (errors.length > 0) return { problem: say(errors) };
  return warnings.length > 0 ? { warnings: `${warnings.length} warning${warnings.length === 1 ? '' : 's'}: ${say(warnings)}` } : {};
}

async function runAgent(ctx: RoleStepContext): Promise<StepDone> {
  const { settings, driver } = ctx.setup;
  if (settings.kind === 'human') throw new Error('unreachable');
  if (!driver) throw new Error(`No driver was given for the ${ctx.role} (${settings.kind} agent).`);
  const layout = ctx.task;
  const maxTries = Math.max(1, settings.maxTries ?? DEFAULT_AGENT_MAX_TRIES);
  const timeoutSec = settings.timeoutSec ?? DEFAULT_AGENT_TIMEOUT_SEC;
  const prompt = await renderDefaultPrompt(ctx.role, ctx.task, settings);
  const promptFile = path.join(ctx.pendingDir, ARCHIVE.prompt(ctx.role));
  // Its fsync overlaps the snapshot and the fresh home below; the agent starts only once it is in place.
  const promptWritten = writeFileAtomic(promptFile, prompt);
  promptWritten.catch(() => undefined); // looked at below, before the first try
  await keepInterruptedLogs(ctx.pendingDir, ctx.role);
  const env = { ...(settings.env ?? {}) };
  const keys = { ...(ctx.setup.secretEnv ?? {}) };

  // What an earlier step left in app/ is not this one's to run or read (a failed try's, before the next try).
  const removed = new Set(await removeLeftovers(layout));
  const scope = { task: ctx.task, run: ctx.run, allowRequirement: ctx.role === 'architect' };
  const before = snapshotOutside(scope);
  const failures: string[] = [];
  /** What the last failed try printed that says why (its exit code alone rarely does). */
  let lastSaid: string | undefined;
  const usage: AgentUsage[] = [];
  const outside = new Set<string>();
  let totalMs = 0;
  let tries = 0;
  let ok = false;
  let permissions: string | undefined;
  let network: AgentRunResult['network'];
  let modelCalls: number | undefined;
  const agentReported: AgentUsage[] = [];
  // What every try of this step may spend together: tokens (sweci.agents.maxTokensPerStep), and
  // bytes of calls records (sweci.agents.maxCallsBytesPerTry: one try's bound is the step's too,
  // so ten tries that each fail just below it cannot write ten times as much).
  const perStep = driver.maxTokensPerStep ?? 0;
  const perStepBytes = driver.maxCallsBytesPerTry ?? 0;
  const stepBudget =
    perStep > 0 || perStepBytes > 0
      ? new Budget('step', { ...(perStep > 0 ? { maxTokens: perStep } : {}), ...(perStepBytes > 0 ? { maxRecordBytes: perStepBytes } : {}) })
      : undefined;
  const diskFloor = driver.minFreeDiskBytes ?? DEFAULT_MIN_FREE_DISK_MB * 1024 * 1024;
  const homeDir = path.join(layout.agentHomeDir, ctx.role);
  // What the harness and the other role wrote is seen, never changed: non-passed/ always, and
  // the Architect's requirement.xml in the Programmer's step.
  const readOnly = ctx.role === 'programmer' ? [layout.nonPassedDir, layout.requirementFile] : [layout.nonPassedDir];
  try {
    for (let tryNumber = 1; tryNumber <= maxTries && !ok; tryNumber++) {
      throwIfAborted(ctx.signal);
      tries = tryNumber;
      // The check that guards a task's unpacking guards each try: its log and calls record are
      // written outside the step's limits, and a full disk would cut the run's records.
      const low = await belowFloor(ctx.pendingDir, diskFloor);
      if (low !== undefined) throw diskFullError(ctx, driver.label, tryNumber, low);
      if (tryNumber > 1) for (const p of await removeLeftovers(layout)) removed.add(p);
      // Like the reference's fresh container per try: a failed try's edits do not carry over.
      // Each try also gets a fresh app/code/.git: nothing planted by an earlier step or try stays.
      if (tryNumber > 1 || ctx.restarted) await ctx.repo.resetTo(ctx.branch, ctx.startCommit);
      await ctx.repo.syncWorkingRepo();
      if (ctx.role === 'architect') await fs.rm(layout.requirementFile, { force: true });
      // A fresh private home per try, like the reference's fresh container.
      await freshHome(homeDir);
      await promptWritten;
      const logFile = path.join(ctx.pendingDir, ARCHIVE.agentLog(ctx.role, tryNumber));
      ctx.emit({ type: 'step-started', run: ctx.run, iteration: ctx.iteration, step: ctx.role, try: tryNumber, kind: 'agent', agent: driver.label, logFile });
      const started = Date.now();
      const result = await driver.run({
        role: ctx.role,
        prompt,
        promptFile,
        cwd: layout.appDir,
        env,
        keys,
        timeoutMs: timeoutSec * 1000,
        signal: ctx.signal,
        logFile,
        callsFile: path.join(ctx.pendingDir, ARCHIVE.agentCalls(ctx.role, tryNumber)),
        at: { iteration: ctx.iteration, try: tryNumber },
        ...(stepBudget ? { stepBudget } : {}),
        confine: agentConfinement(ctx.task, ctx.record),
        homeDir,
        readOnly,
        onOutput: (chunk, stream) => ctx.emit({ type: 'agent-output', run: ctx.run, iteration: ctx.iteration, role: ctx.role, try: tryNumber, chunk, stream }),
      });
      const durationMs = Date.now() - started;
      totalMs += durationMs;
      if (result.usage) usage.push(result.usage);
      if (result.agentUsage) agentReported.push(result.agentUsage);
      if (result.wire) modelCalls = (modelCalls ?? 0) + result.wire.modelCalls;
      permissions = result.permissions ?? permissions;
      network = result.network ?? network;
      if (result.cancelled || ctx.signal.aborted) throw new AbortError();
      let problem = why(result, timeoutSec);
      if (result.wire?.diskFull) {
        emitFinished(ctx, { try: tryNumber, ok: false, durationMs, message: problem, logFile });
        throw diskFullError(ctx, driver.label, tryNumber, result.wire.failure ?? DISK_NEARLY_FULL);
      }
      if (result.wire?.budgetExhausted) {
        // A spent bound is not a failure another try could mend: the run stops here.
        emitFinished(ctx, { try: tryNumber, ok: false, durationMs, message: problem, logFile });
        throw new BudgetExhaustedError(
          `The ${ctx.role} (${driver.label}) stopped in iteration ${ctx.iteration}, try ${tryNumber}: ${result.wire.failure}. Nothing was recorded; the logs and model calls are in ${ctx.pendingDir}. Raise the bound and resume the run to try this step again.`,
        );
      }
      let warnings: string | undefined;
      if (!problem && ctx.role === 'architect') ({ problem, warnings } = await checkRequirement(ctx.task));
      ok = problem === undefined;
      if (problem) failures.push(`try ${tryNumber}: ${problem}`);
      lastSaid = problem ? result.lastWords : undefined;
      emitFinished(ctx, { try: tryNumber, ok, durationMs, message: problem ?? warnings, logFile });
    }
  } finally {
    // What the CLI left in its home (caches, helper binaries, sessions) is not kept.
    await fs.rm(homeDir, { recursive: true, force: true }).catch(() => undefined);
  }
  if (!ok) {
    throw new UserError(
      `The ${ctx.role} (${driver.label}) failed ${tries === 1 ? 'its only try' : `all ${tries} tries`} in iteration ${ctx.iteration}: ${failures.join('; ')}. ` +
        (lastSaid ? `Its last try said: ${JSON.stringify(lastSaid)}.${sandboxHint(settings, lastSaid)} ` : '') +
        `Nothing was recorded; the agent's logs are in ${ctx.pendingDir}. Fix the agent's settings and resume the run to try this step again.`,
    );
  }
  for (const p of diffSnapshots(before, snapshotOutside(scope))) outside.add(p);
  // Not left in app/ after the step either: the next role never finds it, and a 2 GiB file
  // there would otherwise stay for good after the last step.
  for (const p of await removeLeftovers(layout)) removed.add(p);

  const record: RoleStepRecord = {
    execution_time: seconds(totalMs),
    ...sumUsage(usage),
    ...(modelCalls !== undefined ? { model_calls: modelCalls, usage_source: 'wire' as const } : {}),
    ...(agentReported.length > 0 ? { agent_reported: sumUsage(agentReported) } : {}),
    ...(network ? { network } : {}),
    kind: 'agent',
    agent: driver.label,
    tries,
    ...(failures.length > 0 ? { failed_tries: failures } : {}),
    ...(permissions ? { permissions } : {}),
    ...(removed.size > 0 ? { removed_from_app: [...removed].sort() } : {}),
  };
  let tampered: string[] = [];
  if (ctx.role === 'architect') {
    // The architect's product is requirement.xml; its code edits are not kept (the reference
    // runs it in a container whose code is not copied out).
    const changed = await ctx.repo.changedPaths();
    tampered = changed.filter((p) => p.startsWith('tests/') && !isTestArtifact(p));
    const discarded = changed.filter((p) => !p.startsWith('tests/'));
    if (changed.length > 0) await ctx.repo.resetTo(ctx.branch, ctx.startCommit);
    if (discarded.length > 0) record.discarded_changes = discarded;
  }
  return { record, outside: [...outside].sort(), tampered };
}

function diskFullError(ctx: RoleStepContext, agent: string, tryNumber: number, reason: string): DiskNearlyFullError {
  return new DiskNearlyFullError(
    `The ${ctx.role} (${agent}) stopped in iteration ${ctx.iteration}, try ${tryNumber}: ${reason}. Nothing more was written, and every record written so far is whole (the logs and model calls are in ${ctx.pendingDir}). Free some space, or lower sweci.agents.minFreeDiskMb, and resume the run.`,
  );
}

async function runHuman(ctx: RoleStepContext): Promise<StepDone> {
  if (!ctx.humanStep) {
    throw new UserError(
      `The ${ctx.role} is played by a human, but nothing can ask one here. Run this loop in VS Code, or configure an agent for the ${ctx.role}.`,
    );
  }
  const layout = ctx.task;
  const scope = { task: ctx.task, run: ctx.run, allowRequirement: ctx.role === 'architect' };
  const before = snapshotOutside(scope);
  await ctx.repo.syncWorkingRepo();
  // A human's half-done work survives a reload: requirement.xml is removed only on a fresh start.
  if (ctx.role === 'architect' && !ctx.restarted) await fs.rm(layout.requirementFile, { force: true });
  let problems: string[] | undefined;
  let totalMs = 0;
  let tryNumber = 0;
  for (;;) {
    throwIfAborted(ctx.signal);
    tryNumber++;
    ctx.emit({ type: 'step-started', run: ctx.run, iteration: ctx.iteration, step: ctx.role, try: tryNumber, kind: 'human', agent: 'human' });
    const started = Date.now();
    await ctx.humanStep({
      role: ctx.role,
      run: ctx.run,
      iteration: ctx.iteration,
      task: ctx.task,
      appDir: layout.appDir,
      codeDir: layout.codeDir,
      nonPassedDir: layout.nonPassedDir,
      summaryFile: layout.summaryFile,
      requirementFile: layout.requirementFile,
      problems,
      signal: ctx.signal,
    });
    throwIfAborted(ctx.signal);
    const durationMs = Date.now() - started;
    totalMs += durationMs;
    const { problem, warnings } = ctx.role === 'architect' ? await checkRequirement(ctx.task, true) : {};
    emitFinished(ctx, { try: tryNumber, ok: !problem, durationMs, message: problem ?? warnings });
    if (!problem) break;
    problems = [problem];
  }
  // A human may commit with the editor's git tools: that only touches app/code/.git; the
  // iteration's commit is made from the files, in the history store.
  const outside = diffSnapshots(before, snapshotOutside(scope));
  return { record: { execution_time: seconds(totalMs), kind: 'human', agent: 'human', tries: tryNumber }, outside, tampered: [] };
}

/** The step-finished event of one try, agent or human. */
function emitFinished(ctx: RoleStepContext, done: { try: number; ok: boolean; durationMs: number; message?: string; logFile?: string }): void {
  ctx.emit({ type: 'step-finished', run: ctx.run, iteration: ctx.iteration, step: ctx.role, ...done });
}

type UsageFields = Pick<RoleStepRecord, 'input_tokens' | 'output_tokens' | 'cached_tokens' | 'reasoning_tokens' | 'cost_usd'>;

function sumUsage(list: AgentUsage[]): UsageFields {
  const out: UsageFields = {};
  const add = (key: keyof UsageFields, v: number | undefined) => {
    if (v !== undefined) out[key] = (out[key] ?? 0) + v;
  };
  for (const u of list) {
    add('input_tokens', u.inputTokens);
    add('output_tokens', u.outputTokens);
    add('cached_tokens', u.cachedTokens);
    add('reasoning_tokens', u.reasoningTokens);
  }
  // A cost is known only when every try's is: a part of it would read as the whole.
  if (list.length > 0 && list.every((u) => u.costUsd !== undefined)) out.cost_usd = list.reduce((sum, u) => sum + (u.costUsd ?? 0), 0);
  return out;
}

/**
 * A restarted step numbers its tries from 1 again; logs of the interrupted run are kept under
 * another name rather than overwritten ("every agent run has a log on disk").
 */
async function keepInterruptedLogs(dir: string, role: AgentRole): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const re = new RegExp(`^${role}-try-(\\d+)\\.(log|calls\\.jsonl)$`);
  const existing = names.filter((n) => re.test(n));
  if (existing.length === 0) return;
  let round = 1;
  while (names.some((n) => n.startsWith(`${role}-interrupted-${round}-`))) round++;
  for (const n of existing) {
    await fs.rename(path.join(dir, n), path.join(dir, n.replace(`${role}-try-`, `${role}-interrupted-${round}-try-`)));
  }
}
