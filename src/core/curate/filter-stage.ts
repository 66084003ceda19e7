// Step 4 of the paper's curation: in each candidate's image, the oracle's tests run on the
// oracle and on the base (both prepared as the harness initialises a task), with the product's
// own pytest runner and report. A candidate whose tests fail to launch is dropped, and one whose
// oracle passes fewer than --min-gap more tests than its base; the rest are ranked by time span,
// then commits, and the first --top kept.
import { promises as fs } from 'node:fs';
import { plural } from '../util/plural';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { nonPassedIds } from '../gap/non-passed';
import { missingModules } from './module-providers';
import { DEFAULT_PYTEST_TIMEOUT_MS, runPytest, type PytestRun } from '../pytest/run-pytest';
import { passedIds } from '../pytest/test-report';
import type { DockerConnection } from '../runtime/docker/docker-connection';
import { DockerRuntime } from '../runtime/docker/docker-runtime';
import { copyTree } from '../util/copy-tree';
import { throwIfAborted } from '../util/errors';
import { exportTree, pruneTopLevel } from '../workspace/upstream';
import { writeRecords, type CandidateRecord } from './curation-store';
import { exportOracle, gitDirOf } from './env-stage';
import { RecordsWriter, sideBySide } from './side-by-side';

export interface FilterStageOptions {
  minGap: number;
  top: number;
  /** pytest's timeout per run (default the reference's 3600 s). */
  timeoutMs?: number;
  /** Candidates tested side by side; default 1. */
  workers?: number;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export const DEFAULT_MIN_GAP = 5;
export const DEFAULT_TOP = 100;

type Launch = { ok: true; run: Extract<PytestRun, { kind: 'ran' }> } | { ok: false; reason: string; run: PytestRun };

async function launch(runtime: DockerRuntime, codeDir: string, reportDir: string, options: FilterStageOptions): Promise<Launch> {
  const run = await runPytest(runtime, {
    python: 'python',
    codeDir,
    reportFile: path.join(reportDir, 'report.json'),
    format: 'builtin',
    timeoutMs: options.timeoutMs ?? DEFAULT_PYTEST_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  throwIfAborted(options.signal);
  if (run.kind !== 'ran') return { ok: false, reason: run.reason, run };
  if (run.report.tests.length === 0) return { ok: false, reason: `pytest collected no test (exit ${run.exitCode})`, run };
  return { ok: true, run };
}

/**
 * Whether the oracle's run in a shared image stands for its collection in the environment stage:
 * pytest ran its tests to the end (exit 0 or 1) and no module was missing. Otherwise the
 * environment stage collects, and may repair, as for any candidate.
 */
function whyCollectAgain(oracle: Launch): string | undefined {
  const missing = missingModules(oracle.run.output);
  if (missing.length) return `module ${missing.join(', ')} missing in the shared image`;
  if (!oracle.ok) return oracle.reason;
  if (oracle.run.exitCode !== 0 && oracle.run.exitCode !== 1) return `pytest exited with code ${oracle.run.exitCode}`;
  return undefined;
}

/** Runs the filter on every candidate whose environment was built; then ranks. `records` is updated in place and written after each candidate. */
export async function runFilterStage(
  conn: DockerConnection,
  out: string,
  repoDir: string,
  records: CandidateRecord[],
  options: FilterStageOptions,
): Promise<void> {
  const gitDir = await gitDirOf(repoDir);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-filter-'));
  const writer = new RecordsWriter(out, records);
  try {
    const waiting = records.filter((r) => r.stage === 'env' && r.outcome === 'pending' && r.image);
    await sideBySide(waiting, options.workers ?? 1, async (r) => {
      throwIfAborted(options.signal);
      options.onProgress?.(`filter: ${r.id} in ${r.image}`);
      const started = performance.now();
      const dir = path.join(scratch, r.id);
      const targetCode = path.join(dir, 'target', 'code');
      const currentCode = path.join(dir, 'current', 'code');
      // The harness's initialisation: the oracle without `test`; the base without `test` and
      // `tests`, given the oracle's `tests`.
      await exportOracle(gitDir, r.oracle, targetCode, options.signal);
      await exportTree(gitDir, r.base, currentCode, options.signal);
      await pruneTopLevel(currentCode, ['test', 'tests']);
      await copyTree(path.join(targetCode, 'tests'), path.join(currentCode, 'tests')).catch(() => undefined);
      const runtime = new DockerRuntime({ connection: conn, image: r.image as string, purpose: 'curate-filter', prestart: false });
      let verdict: { code?: string; reason?: string; gap?: number; oraclePassed?: number; basePassed?: number; collectAgain?: string };
      try {
        const target = await launch(runtime, targetCode, path.join(dir, 'reports-target'), options);
        const collectAgain = r.collectIn === 'filter' ? whyCollectAgain(target) : undefined;
        if (collectAgain) verdict = { collectAgain };
        else if (!target.ok) verdict = { code: 'oracle-launch', reason: `the oracle's tests do not launch on the oracle: ${target.reason}` };
        else {
          const current = await launch(runtime, currentCode, path.join(dir, 'reports-current'), options);
          if (!current.ok) verdict = { code: 'base-launch', reason: `the oracle's tests do not launch on the base: ${current.reason}` };
          else {
            const gap = nonPassedIds(current.run.report, target.run.report).length;
            const oraclePassed = passedIds(target.run.report).size;
            const basePassed = passedIds(current.run.report).size;
            verdict = { gap, oraclePassed, basePassed };
            if (gap < options.minGap) {
              verdict.code = 'min-gap';
              verdict.reason = `the oracle passes ${plural(gap, 'test')} the base does not, fewer than --min-gap ${options.minGap}`;
            }
          }
        }
      } finally {
        await runtime.dispose();
        await fs.rm(dir, { recursive: true, force: true });
      }
      if (verdict.collectAgain) {
        // Back to the environment stage, which collects this oracle's tests itself.
        options.onProgress?.(`${r.id} goes back to the environment stage: ${verdict.collectAgain}`);
        r.stage = 'mine';
        r.outcome = 'pending';
        r.collectIn = 'env';
        delete r.image;
        delete r.stages.env;
        await writer.save();
        return;
      }
      const at = new Date().toISOString();
      const seconds = Math.round((performance.now() - started) / 10) / 100;
      r.stage = 'filter';
      if (verdict.gap !== undefined) r.gap = verdict.gap;
      if (verdict.oraclePassed !== undefined) r.oraclePassed = verdict.oraclePassed;
      if (verdict.basePassed !== undefined) r.basePassed = verdict.basePassed;
      if (verdict.code) {
        r.outcome = 'dropped';
        r.reason = verdict.reason;
        r.stages.filter = { outcome: 'dropped', code: verdict.code, reason: verdict.reason, at, seconds };
      } else {
        r.outcome = 'pending';
        delete r.reason;
        r.stages.filter = { outcome: 'passed', at, seconds };
      }
      await writer.save();
    });
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
  await rankCandidates(out, records, options.top);
}

/**
 * Ranks every candidate past the gap threshold by time span, then commits (longest first; the
 * older base breaks a tie), and keeps the first `top`; the others are dropped with code `top`.
 * Running again with another --top re-ranks the ones not packed yet.
 */
export async function rankCandidates(out: string, records: CandidateRecord[], top: number): Promise<void> {
  const ranked = records
    .filter((r) => r.stages.filter?.outcome === 'passed' || r.stages.filter?.code === 'top')
    .sort((a, b) => b.days - a.days || b.commits - a.commits || a.baseIndex - b.baseIndex);
  let changed = false;
  ranked.forEach((r, i) => {
    if (r.stage !== 'filter') return; // packed already: its place is taken
    const filter = r.stages.filter;
    if (!filter) return;
    if (i < top && filter.outcome !== 'passed') {
      r.stages.filter = { outcome: 'passed', at: filter.at, seconds: filter.seconds };
      r.outcome = 'pending';
      delete r.reason;
      changed = true;
    } else if (i >= top && filter.outcome === 'passed') {
      const reason = `ranked ${i + 1} of ${ranked.length} by time span and commits; --top ${top} keeps ${top}`;
      r.stages.filter = { outcome: 'dropped', code: 'top', reason, at: filter.at, seconds: filter.seconds };
      r.outcome = 'dropped';
      r.reason = reason;
      changed = true;
    }
  });
  if (changed) await writeRecords(out, records);
}
