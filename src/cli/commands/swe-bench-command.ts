// sweci export swe-bench and sweci grade: SWE-bench's harness files from an experiment, and
// predictions from any tool graded with our pytest.
import * as path from 'node:path';
import { exportExperimentRun } from '../../core/export/swe-bench/export-experiment';
import { gradePredictions, readGradingInstances } from '../../core/export/swe-bench/grade-predictions';
import type { RunSummary } from '../../core/export/swe-bench/harness-files';
import { readPredictionsFile } from '../../core/export/swe-bench/predictions-file';
import { checkOutputFolder, writeResultsFolder } from '../../core/export/swe-bench/results-folder';
import { readPytestSettings } from '../../core/pytest/pytest-settings';
import { taskIdProblem } from '../../core/task/task-id';
import { UserError } from '../../core/util/errors';
import { cliSettings } from '../cli-settings';
import { progressLine, type CommandContext } from './task-commands';

export interface ExportSweBenchValues {
  run?: string;
  out?: string;
  model?: string;
  runId?: string;
}

export interface GradeValues extends Record<string, unknown> {
  predictions?: string;
  instances?: string;
  repo?: string;
  repos?: string;
  out?: string;
  runId?: string;
}

/** The harness's run id names a folder and the summary's file: a safe single name. */
function runIdOf(value: string | undefined): string {
  const id = value ?? 'sweci';
  const problem = taskIdProblem(id);
  if (problem) throw new UserError(`--run-id "${id}" cannot name a folder because ${problem}.`);
  return id;
}

export async function exportSweBenchCommand(experiment: string, values: ExportSweBenchValues): Promise<number> {
  if (!values.out) throw new UserError('export swe-bench needs --out <dir>: a new or empty folder for predictions.jsonl, the reports and the summary.');
  const runId = runIdOf(values.runId);
  if (values.model !== undefined && taskIdProblem(values.model.replace(/\//g, '__')))
    throw new UserError(`--model "${values.model}" cannot name a folder: ${taskIdProblem(values.model.replace(/\//g, '__'))}.`);
  const out = path.resolve(values.out);
  await checkOutputFolder(out);
  const run = await exportExperimentRun(path.resolve(experiment), { run: values.run, model: values.model });
  const { summary, summaryFile } = await writeResultsFolder({ out, runId, ...run, withPredictions: true });
  printSummary(summary, summaryFile);
  console.log(`predictions: ${path.join(out, 'predictions.jsonl')}`);
  return 0;
}

export async function gradeCommand(values: GradeValues, ctx: CommandContext): Promise<number> {
  if (!values.predictions)
    throw new UserError('grade needs --predictions <file>: the predictions (JSON Lines of instance_id, model_name_or_path, model_patch).');
  if (!values.instances) throw new UserError('grade needs --instances <file>: the SWE-bench-style instances (or a SWE-Bench-CL sequence file).');
  if (!values.repo && !values.repos) throw new UserError("grade needs --repo <clone> or --repos <folder of clones>: the instances' repositories.");
  if (!values.out) throw new UserError('grade needs --out <dir>: a new or empty folder for the reports and the summary.');
  const runId = runIdOf(values.runId);
  const settings = cliSettings(values, undefined, { runtime: 'auto' });
  const pytest = readPytestSettings(settings.read, settings.label);
  const out = path.resolve(values.out);
  await checkOutputFolder(out);
  // Every line is checked before anything runs: a malformed one is refused with its line number.
  const predictions = await readPredictionsFile(values.predictions);
  const instances = await readGradingInstances(values.instances);
  const env = await ctx.open(settings, {});
  const results = await gradePredictions(predictions, {
    ...pytest,
    python: env.python,
    instances,
    instancesFile: path.resolve(values.instances),
    clones: { repoPath: values.repo, reposDir: values.repos },
    runtime: env.tests,
    hide: [path.resolve(values.predictions), out],
    signal: ctx.signal,
    onProgress: progressLine,
  });
  const dataset = instances.map((i) => i.instanceId);
  const { summary, summaryFile } = await writeResultsFolder({ out, runId, dataset, predictions, results, withPredictions: false });
  for (const [id, r] of results) if (r.kind === 'error') console.error(`error: ${id}: ${r.reason}`);
  printSummary(summary, summaryFile);
  return 0;
}

function printSummary(s: RunSummary, file: string): void {
  console.log(
    `instances: ${s.total_instances} · submitted ${s.submitted_instances} · completed ${s.completed_instances} · resolved ${s.resolved_instances} · unresolved ${s.unresolved_instances} · empty patch ${s.empty_patch_instances} · errors ${s.error_instances}`,
  );
  console.log(`summary: ${file}`);
}
