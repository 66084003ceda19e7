// The target side of a SWE-bench instance. There is no fixed commit to run: the tests that must
// pass are FAIL_TO_PASS ∪ PASS_TO_PASS. The target report holds exactly those as passed, each
// checked against pytest's run on the base with the test patch: collected there, or in a test
// file that exists but did not import (a new test importing what the base lacks cannot be
// collected before the fix; SWE-bench has the same blind spot).
import type { TestCase, TestOutcome, TestReport } from '../pytest/test-report';
import type { SweBenchInstance } from '../task/swe-bench-instance';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';

/** `run` is pytest's report on the base with the test patch in `codeDir`; `where` names the file and instance. */
export function instanceTargetReport(run: TestReport, instance: SweBenchInstance, where: string, codeDir: string): TestReport {
  const collected = new Map(run.tests.map((t) => [t.nodeid, t]));
  const fileOf = (id: string) => id.split('::')[0];
  const filesWithTests = new Set(run.tests.filter((t) => t.nodeid.includes('::')).map((t) => fileOf(t.nodeid)));
  // Not collected, but in a test file that exists and yielded no test at all: it did not import.
  const uncollectable = (id: string) =>
    id.includes('::') && !filesWithTests.has(fileOf(id)) && !fileOf(id).split('/').includes('..') && existsSync(path.join(codeDir, fileOf(id)));
  for (const [field, ids] of [
    ['FAIL_TO_PASS', instance.failToPass],
    ['PASS_TO_PASS', instance.passToPass],
  ] as const) {
    const unknown = ids.filter((id) => !collected.has(id) && !uncollectable(id));
    if (unknown.length > 0) {
      const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more: ${unknown.slice(1, 4).join(', ')}${unknown.length > 4 ? ', …' : ''})` : '';
      throw new UserError(
        `${where}: ${field} names ${unknown[0]}${more}, which pytest does not collect on the base with the test patch (nor is it in a test file there that does not import yet). Check the instance's ${field} (pytest node ids, relative to the repository) and its test_patch.`,
      );
    }
  }
  const passToPass = new Set(instance.passToPass);
  const tests: TestCase[] = [...instance.failToPass, ...instance.passToPass].map((nodeid) => {
    const ran = collected.get(nodeid);
    // SWE-bench counts XFAIL as passing: a PASS_TO_PASS test that is an expected failure on the
    // base stays one on the target side, so it is not in the non-passed set the loop works on.
    const xfail = passToPass.has(nodeid) && ran?.outcome === 'xfailed';
    return {
      nodeid,
      outcome: xfail ? 'xfailed' : 'passed',
      file: ran?.file ?? fileOf(nodeid),
      ...(ran?.lineno !== undefined ? { lineno: ran.lineno } : {}),
      phases: { setup: { outcome: 'passed' }, call: { outcome: xfail ? 'skipped' : 'passed' }, teardown: { outcome: 'passed' } },
    };
  });
  const xfailed = tests.filter((t) => t.outcome === 'xfailed').length;
  const summary = { passed: tests.length - xfailed, ...(xfailed ? { xfailed } : {}), total: tests.length, collected: tests.length };
  return { format: run.format, exitCode: 0, summary, tests };
}

/**
 * SWE-Bench-CL's success rate a_ij = p_pass / p_total: the share of the instance's FAIL_TO_PASS ∪
 * PASS_TO_PASS tests that pass (passed or XFAIL, as SWE-bench grades); null for an instance
 * that lists no test.
 */
export function instanceSuccessRate(report: TestReport, instance: SweBenchInstance): number | null {
  const v = instanceResolution(report, instance);
  const total = v.failToPass[1] + v.passToPass[1];
  return total === 0 ? null : (v.failToPass[0] + v.passToPass[0]) / total;
}

/**
 * SWE-bench's verdict on a report, graded as its harness grades: a test passes when it passed or
 * is an expected failure (XFAIL), fails when it failed, erred or did not run at all; anything
 * else (skipped, XPASS) is neither and does not count. Resolved: no FAIL_TO_PASS and no
 * PASS_TO_PASS test fails. The pairs are [tests that pass, tests listed].
 */
export function instanceResolution(
  report: TestReport,
  instance: SweBenchInstance,
): { resolved: boolean; failToPass: [number, number]; passToPass: [number, number] } {
  const outcome = new Map(report.tests.map((t) => [t.nodeid, t.outcome]));
  const f2p = gradeListed(outcome, instance.failToPass);
  const p2p = gradeListed(outcome, instance.passToPass);
  return {
    resolved: f2p.failure.length === 0 && p2p.failure.length === 0,
    failToPass: [f2p.success.length, instance.failToPass.length],
    passToPass: [p2p.success.length, instance.passToPass.length],
  };
}

/** The listed tests that pass and those that fail, by the rule above; the rest are in neither. */
export function gradeListed(outcome: ReadonlyMap<string, TestOutcome>, ids: readonly string[]): { success: string[]; failure: string[] } {
  const success: string[] = [];
  const failure: string[] = [];
  for (const id of ids) {
    const o = outcome.get(id);
    if (o === 'passed' || o === 'xfailed') success.push(id);
    else if (o === undefined || o === 'failed' || o === 'error') failure.push(id);
  }
  return { success, failure };
}
