// The loop driver: iteration after iteration (Architect, Programmer, pytest; run-iteration.ts)
// until a stop condition: gap 0, the run's maximum, the iterations asked for, or a paused step.
// Opening the run, the lock and what happens when the loop ends are the lifecycle's (run-loop.ts).
import * as path from 'node:path';
import { assertEndpointsAnswer } from '../agents/endpoint/endpoint-check';
import { agentSearchPath } from '../agents/cli-driver';
import { SecretMask } from '../util/secret-mask';
import { loadReport } from '../checkout/report-store';
import { passedIds } from '../pytest/test-report';
import type { CodeRepo } from './code-repo';
import type { IterationRecord } from './iteration-record';
import type { LoopEvent, LoopOptions, LoopStopReason } from './loop-types';
import type { OpenedRun } from './open-run';
import { roleSecrets } from './role-setup';
import { runIteration, type IterationContext } from './run-iteration';
import { ARCHIVE, type RunLayout } from './run-store';

export interface LoopDrive {
  /** The call's options, roles with their drivers. */
  opts: LoopOptions;
  run: OpenedRun;
  repo: CodeRepo;
  signal: AbortSignal;
  emit: (event: LoopEvent) => void;
  /** Lines recorded by this call; the driver appends each one (as it does to run.records). */
  recorded: IterationRecord[];
}

/** Runs iterations until one of the stop conditions holds, and says which. Throws when a step fails every try or on cancel. */
export async function driveLoop(drive: LoopDrive): Promise<Exclude<LoopStopReason, 'cancelled' | 'failed'>> {
  const { opts, run, repo, signal, emit, recorded } = drive;
  const { records, layout, info } = run;
  const ctx: IterationContext = {
    opts,
    record: run.record,
    layout,
    target: run.target,
    repo,
    branch: run.branch,
    signal,
    emit,
    lastRan: await lastRanPassed(layout, records),
    basePassed: await archivedPassed(layout, 0),
    secrets: new SecretMask([...roleSecrets(opts.roles.architect), ...roleSecrets(opts.roles.programmer)]),
  };
  // A role whose program is missing, or an endpoint that does not answer or refuses the key,
  // stops the run before any step: not after the Architect has been paid for.
  const first = records[records.length - 1];
  if (first.gap !== 0 && records.length - 1 < info.maxIterations) {
    await assertRolesStartable(opts.roles, opts.task.appDir);
    await assertRolesEndpoints(opts.roles, signal);
  }
  for (;;) {
    const last = records[records.length - 1];
    if (last.gap === 0) return 'solved';
    if (records.length - 1 >= info.maxIterations) return 'max-iterations';
    if (opts.iterations !== undefined && recorded.length >= opts.iterations) return 'paused';
    const outcome = await runIteration(ctx, records.length, last.commit);
    if (outcome.kind === 'paused') return 'paused';
    records.push(outcome.record);
    recorded.push(outcome.record);
    emit({ type: 'iteration-recorded', run: opts.run, record: outcome.record, tamperedBy: outcome.tamperedBy });
    if (outcome.record.gap >= 0) ctx.lastRan = await archivedPassed(layout, outcome.record.iteration);
  }
}

/** Each agent role's program is there (humans play in the editor). */
async function assertRolesStartable(roles: LoopOptions['roles'], appDir: string): Promise<void> {
  for (const role of ['architect', 'programmer'] as const) {
    const { settings, driver } = roles[role];
    if (settings.kind === 'human' || !driver?.assertStartable) continue;
    await driver.assertStartable(role, appDir, agentSearchPath(settings));
  }
}

/** The endpoint check for the roles agents play in this call (presets and custom agents with a base URL; humans have none). */
async function assertRolesEndpoints(roles: LoopOptions['roles'], signal: AbortSignal): Promise<void> {
  const secrets = { ...(roles.architect.secretEnv ?? {}), ...(roles.programmer.secretEnv ?? {}) };
  // A replayed role asks no endpoint: its answers are recorded.
  const asked = (setup: LoopOptions['roles']['architect']) => (setup.driver?.replays ? { kind: 'human' as const } : setup.settings);
  await assertEndpointsAnswer({ architect: asked(roles.architect), programmer: asked(roles.programmer) }, secrets, signal);
}

async function archivedPassed(layout: RunLayout, iteration: number): Promise<Set<string> | undefined> {
  const report = await loadReport(path.join(layout.iterationDir(iteration), ARCHIVE.report)).catch(() => undefined);
  return report ? passedIds(report) : undefined;
}

/** Passed ids of the last iteration whose pytest ran: regressions are counted against it. */
async function lastRanPassed(layout: RunLayout, records: IterationRecord[]): Promise<Set<string> | undefined> {
  for (let i = records.length - 1; i >= 0; i--) {
    if (records[i].gap >= 0) return archivedPassed(layout, records[i].iteration);
  }
  return undefined;
}
