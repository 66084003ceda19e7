// The files SWE-bench's evaluation harness reads and writes, in its shapes: a prediction
// (predictions.jsonl's line), an instance's report.json, the run summary (<model>.<run_id>.json)
// and where each goes (logs/run_evaluation/<run_id>/<model>/<instance_id>/). Built from our
// graded results; `sweci export swe-bench` and `sweci grade` both write them through here.
import * as path from 'node:path';
import { gradeListed, instanceResolution } from '../../checkout/instance-target';
import type { TestReport } from '../../pytest/test-report';
import type { SweBenchInstance } from '../../task/swe-bench-instance';

export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  /** A unified diff against the instance's base commit; null or "" is an empty patch. */
  model_patch: string | null;
}

interface SuccessFailure {
  success: string[];
  failure: string[];
}

/** The harness's tests_status: FAIL_TO_FAIL and PASS_TO_FAIL are always there, empty unless asked for (we never are). */
export interface TestsStatus {
  FAIL_TO_PASS: SuccessFailure;
  PASS_TO_PASS: SuccessFailure;
  FAIL_TO_FAIL: SuccessFailure;
  PASS_TO_FAIL: SuccessFailure;
}

/** One instance's entry of report.json (the file is `{ <instance_id>: InstanceReport }`). */
interface InstanceReport {
  patch_is_None: boolean;
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  resolved: boolean;
  tests_status: TestsStatus;
}

/** What became of one prediction: graded (a report), an empty patch, or an error (no report, as the harness leaves none). */
export type InstanceResult =
  | { kind: 'graded'; report: InstanceReport; patch: string; testOutput?: string }
  | { kind: 'empty' }
  | { kind: 'error'; reason: string; patch?: string; testOutput?: string };

/**
 * An instance's report from pytest's report on its code, graded by our rule (instanceResolution):
 * a listed test succeeds when it passed or is XFAIL, fails when it failed, erred or did not run;
 * a skipped or XPASS test is in neither list, and resolved means no test of either list fails.
 */
export function instanceReport(report: TestReport, instance: SweBenchInstance): InstanceReport {
  const outcome = new Map(report.tests.map((t) => [t.nodeid, t.outcome]));
  const failToPass = gradeListed(outcome, instance.failToPass);
  const passToPass = gradeListed(outcome, instance.passToPass);
  return {
    patch_is_None: false,
    patch_exists: true,
    patch_successfully_applied: true,
    resolved: instanceResolution(report, instance).resolved,
    tests_status: {
      FAIL_TO_PASS: failToPass,
      PASS_TO_PASS: passToPass,
      FAIL_TO_FAIL: { success: [], failure: [] },
      PASS_TO_FAIL: { success: [], failure: [] },
    },
  };
}

/** The harness's run summary (reporting.py's make_run_report, without the Docker clean-up fields). */
export interface RunSummary {
  total_instances: number;
  submitted_instances: number;
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  empty_patch_instances: number;
  error_instances: number;
  completed_ids: string[];
  incomplete_ids: string[];
  empty_patch_ids: string[];
  submitted_ids: string[];
  resolved_ids: string[];
  unresolved_ids: string[];
  error_ids: string[];
  schema_version: 2;
}

/**
 * The summary over `dataset` (every instance the run could have had), counted as the harness
 * counts: no prediction is incomplete, an empty patch is neither completed nor an error, a
 * report makes it completed (resolved or not), and no report is an error. A prediction for an
 * instance outside `dataset` is an error too (the harness refuses the whole run instead).
 */
export function runSummary(dataset: readonly string[], predictions: readonly Prediction[], results: ReadonlyMap<string, InstanceResult>): RunSummary {
  const predicted = new Set(predictions.map((p) => p.instance_id));
  const known = new Set(dataset);
  const ids = {
    completed: [] as string[],
    incomplete: [] as string[],
    empty: [] as string[],
    resolved: [] as string[],
    unresolved: [] as string[],
    error: [] as string[],
  };
  for (const id of dataset) {
    const result = results.get(id);
    if (!predicted.has(id)) ids.incomplete.push(id);
    else if (result?.kind === 'empty') ids.empty.push(id);
    else if (result?.kind === 'graded') {
      ids.completed.push(id);
      (result.report.resolved ? ids.resolved : ids.unresolved).push(id);
    } else ids.error.push(id);
  }
  for (const id of predicted) if (!known.has(id)) ids.error.push(id);
  const sorted = (list: string[]) => [...list].sort();
  return {
    total_instances: dataset.length,
    submitted_instances: predicted.size,
    completed_instances: ids.completed.length,
    resolved_instances: ids.resolved.length,
    unresolved_instances: ids.unresolved.length,
    empty_patch_instances: ids.empty.length,
    error_instances: ids.error.length,
    completed_ids: sorted(ids.completed),
    incomplete_ids: sorted(ids.incomplete),
    empty_patch_ids: sorted(ids.empty),
    submitted_ids: sorted([...predicted]),
    resolved_ids: sorted(ids.resolved),
    unresolved_ids: sorted(ids.unresolved),
    error_ids: sorted(ids.error),
    schema_version: 2,
  };
}

/** A model name as the harness turns it into a folder name ("org/model" → "org__model"). */
export function modelFolderName(model: string): string {
  return model.replace(/\//g, '__');
}

/** Where the harness keeps one instance's files, below the output folder. */
export function instanceLogDir(out: string, runId: string, model: string, instanceId: string): string {
  return path.join(out, 'logs', 'run_evaluation', runId, modelFolderName(model), instanceId);
}

/** The summary's file name: `<model>.<run_id>.json`, the model of the first prediction. */
export function summaryFileName(model: string, runId: string): string {
  return `${modelFolderName(model)}.${runId}.json`;
}
