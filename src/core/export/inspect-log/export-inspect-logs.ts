// `sweci export inspect` and the editor's Export Inspect Log…: one Inspect log (`.eval`) per
// finished run of an experiment, and listing.json, the overview of the folder's logs that
// Inspect's viewer reads when the folder is served as it is (Inspect's write_log_listing makes the same).
// All the logs are written to temp files first and renamed into place only once every one is
// complete: an export that fails leaves the folder as it was.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ExperimentRecord } from '../../batch/experiment';
import { writeFileAtomic } from '../../util/fs-atomic';
import { UserError, errorMessage, throwIfAborted } from '../../util/errors';
import type { ScoringRules } from '../../../shared/metrics/scored-line';
import { sampleMemberName, writeEvalZip, type EvalMember, type PendingFile } from './eval-zip';
import { readExperimentRuns, type ExperimentRun } from './experiment-runs';
import type { InspectEvalSpec, InspectLogHeader, InspectLogOverview, InspectPlan, InspectSampleSummary } from './inspect-log-types';
import { buildSample, stableId, type BuiltSample } from './inspect-sample';
import { evalScores, reductions } from './inspect-scores';
import { roleModel, sumUsage } from './inspect-usage';

export const LISTING_FILE = 'listing.json';

export interface InspectExportOptions {
  outDir: string;
  run?: string;
  gamma?: number;
  scoring?: ScoringRules;
  /** Told of each log once it is complete (before the renames). */
  onLog?: (run: string, file: string) => void;
  /** Stops the export between samples (the editor's Cancel): nothing is written, the folder stays as it was. */
  signal?: AbortSignal;
}

export interface InspectExportResult {
  /** The logs written, by run, in the summary's order. */
  logs: Array<{ run: string; file: string; samples: number }>;
  listing: string;
  /** Runs left out, and why. */
  skipped: Array<{ run: string; reason: string }>;
}

/** A name safe in any file system, from any text (a run's name is a folder's, an experiment's may be anything). */
function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'run';
}

function taskSetName(record: ExperimentRecord): string {
  return record.sequence ? `swe-ci/${record.sequence.id}` : `swe-ci/${path.basename(record.dataset)}`;
}

function modelName(run: ExperimentRun): string {
  const a = roleModel(run.info, 'architect');
  const p = roleModel(run.info, 'programmer');
  return a === p ? a : `${a} + ${p}`;
}

interface LogContext {
  dir: string;
  record: ExperimentRecord;
  gamma: number;
  maxIterations?: number;
  scoring?: ScoringRules;
  signal?: AbortSignal;
}

/** The experiment's settings, as Inspect's eval config (epochs: one) and in the eval's metadata (kept by Inspect's reader). */
function settings(ctx: LogContext, run: ExperimentRun): Record<string, unknown> {
  const r = ctx.record;
  return {
    experiment: ctx.dir,
    dataset: r.dataset,
    split: r.split,
    ...(r.sequence ? { sequence: r.sequence } : {}),
    run: run.name,
    run_kind: run.info.kind,
    max_iterations: ctx.maxIterations ?? run.info.maxIterations,
    gamma: ctx.gamma,
    scoring: {
      exclude_harness_tampering: ctx.scoring?.excludeHarnessTampering ?? false,
      score_target_tests_only: ctx.scoring?.scoreTargetTestsOnly ?? false,
      keep_flagged: ctx.scoring?.keepFlagged ?? false,
    },
    architect: run.info.roles.architect,
    programmer: run.info.roles.programmer,
  };
}

function evalSpec(ctx: LogContext, run: ExperimentRun, evalId: string): InspectEvalSpec {
  const config = settings(ctx, run);
  const role = (name: 'architect' | 'programmer') => ({ model: roleModel(run.info, name), config: {}, args: { agent: run.info.roles[name].label } });
  const ids = run.tasks.map((t) => t.id);
  return {
    eval_id: evalId,
    run_id: stableId(evalId, 'run'),
    created: run.info.created,
    task: taskSetName(ctx.record),
    // One per run: Inspect's viewer takes logs of one task_id for retries of each other and lists the newest only.
    task_id: stableId(ctx.dir, run.name, 'task'),
    task_version: 0,
    task_attribs: {},
    task_args: { split: ctx.record.split },
    task_args_passed: { split: ctx.record.split },
    solver: 'sweci/ci-loop',
    dataset: { name: path.basename(ctx.record.dataset), location: ctx.record.dataset, samples: ids.length, sample_ids: ids, shuffled: false },
    model: modelName(run),
    model_generate_config: {},
    model_args: {},
    model_roles: { architect: role('architect'), programmer: role('programmer') },
    config: { epochs: 1, ...config },
    packages: {},
    metadata: { sweci: config },
  };
}

function plan(run: ExperimentRun): InspectPlan {
  const step = (name: 'architect' | 'programmer') => {
    const r = run.info.roles[name];
    return { solver: name, params: { kind: r.kind, agent: r.label, ...(r.model ? { model: r.model } : {}), ...(r.preset ? { preset: r.preset } : {}) } };
  };
  return { name: 'plan', steps: [step('architect'), step('programmer')], config: {} };
}

/** One run's log into a temp file; its header (for listing.json) once the samples are in. */
async function writeRunLog(ctx: LogContext, run: ExperimentRun, file: string): Promise<{ pending: PendingFile; header: InspectLogHeader }> {
  const evalId = stableId(ctx.dir, run.name);
  const spec = evalSpec(ctx, run, evalId);
  const logPlan = plan(run);
  const built: Array<Pick<BuiltSample, 'summary' | 'usage'> & { id: string; metrics: BuiltSample['sample']['scores'] }> = [];
  let header: InspectLogHeader | undefined;
  async function* members(): AsyncGenerator<EvalMember> {
    yield ['_journal/start.json', { version: 2, eval: spec, plan: logPlan }];
    for (const t of run.tasks) {
      throwIfAborted(ctx.signal);
      const b = await buildSample(t, evalId);
      built.push({ id: t.id, summary: b.summary, usage: b.usage, metrics: b.sample.scores });
      yield [sampleMemberName(t.id, 1), b.sample];
    }
    const summaries: InspectSampleSummary[] = built.map((b) => b.summary);
    yield ['summaries.json', summaries];
    yield ['reductions.json', reductions(built.map((b) => ({ id: b.id, scores: b.metrics })))];
    const usage = sumUsage(built.map((b) => b.usage));
    const starts = summaries.flatMap((s) => (s.started_at ? [s.started_at] : [])).sort();
    const ends = summaries.flatMap((s) => (s.completed_at ? [s.completed_at] : [])).sort();
    header = {
      version: 2,
      status: 'success',
      eval: spec,
      plan: logPlan,
      results: {
        total_samples: built.length,
        completed_samples: built.length,
        scores: evalScores(
          run.tasks.map((t) => t.run.metrics),
          built.map((b) => b.metrics),
        ),
      },
      stats: {
        started_at: starts[0] ?? run.info.created,
        completed_at: ends[ends.length - 1] ?? run.info.created,
        model_usage: usage.model,
        role_usage: usage.role,
      },
      invalidated: false,
    };
    yield ['header.json', header];
  }
  const pending = await writeEvalZip(file, members(), new Date(run.info.created));
  return { pending, header: header! };
}

/** The header as listing.json lists it (Inspect's to_overview: the first scorer's first metric is the primary one). */
function overview(header: InspectLogHeader): InspectLogOverview {
  const primary = Object.values(header.results.scores[0]?.metrics ?? {})[0];
  return {
    eval_id: header.eval.eval_id,
    run_id: header.eval.run_id,
    task: header.eval.task,
    task_id: header.eval.task_id,
    task_version: header.eval.task_version,
    version: header.version,
    status: header.status,
    invalidated: header.invalidated,
    model: header.eval.model,
    model_roles: Object.fromEntries(Object.entries(header.eval.model_roles).map(([role, c]) => [role, c.model])),
    started_at: header.stats.started_at,
    completed_at: header.stats.completed_at,
    ...(primary ? { primary_metric: primary } : {}),
  };
}

/** listing.json as it is in the folder (other logs' entries kept), or empty when there is none or it is not a manifest. */
async function readListing(file: string): Promise<Record<string, unknown>> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function exportInspectLogs(experimentDir: string, opts: InspectExportOptions): Promise<InspectExportResult> {
  const read = await readExperimentRuns(experimentDir, {
    ...(opts.run !== undefined ? { run: opts.run } : {}),
    ...(opts.gamma ? { gamma: opts.gamma } : {}),
    ...(opts.scoring ? { scoring: opts.scoring } : {}),
  });
  const outDir = path.resolve(opts.outDir);
  const stat = await fs.stat(outDir).catch(() => undefined);
  if (stat && !stat.isDirectory()) throw new UserError(`--out ${outDir} is a file: give a folder for the Inspect logs (it is made when missing).`);
  try {
    await fs.mkdir(outDir, { recursive: true });
  } catch (err) {
    throw new UserError(`Cannot make the folder ${outDir} (${errorMessage(err)}). Give another --out.`, { cause: err });
  }
  const ctx: LogContext = {
    dir: read.dir,
    record: read.record,
    gamma: read.gamma,
    ...(read.maxIterations ? { maxIterations: read.maxIterations } : {}),
    ...(opts.scoring ? { scoring: opts.scoring } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const experimentName = safeName(path.basename(read.dir));
  const done: Array<{ run: string; file: string; samples: number; pending: PendingFile; header: InspectLogHeader }> = [];
  try {
    for (const run of read.runs) {
      const file = path.join(outDir, `${experimentName}_${safeName(run.name)}.eval`);
      const { pending, header } = await writeRunLog(ctx, run, file);
      done.push({ run: run.name, file, samples: run.tasks.length, pending, header });
      opts.onLog?.(run.name, file);
    }
  } catch (err) {
    await Promise.all(done.map((d) => d.pending.discard()));
    throw err;
  }
  // The last moment a cancel can leave the folder as it was.
  if (opts.signal?.aborted) {
    await Promise.all(done.map((d) => d.pending.discard()));
    throwIfAborted(opts.signal);
  }
  for (const d of done) await d.pending.commit();
  const listing = path.join(outDir, LISTING_FILE);
  const entries = await readListing(listing);
  for (const d of done) entries[path.basename(d.file)] = overview(d.header);
  await writeFileAtomic(listing, JSON.stringify(entries));
  return { logs: done.map(({ run, file, samples }) => ({ run, file, samples })), listing, skipped: read.skipped };
}
