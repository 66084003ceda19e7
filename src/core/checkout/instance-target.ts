// The target side of a SWE-bench instance. There is no fixed commit to run: the tests that must
// pass are FAIL_TO_PASS ∪ PASS_TO_PASS. The target report holds exactly those as passed, each
// checked against pytest's run on the base with the test patch: collected there, or in a test
// file that exists but did not import (a new test importing what the base lacks cannot be
// collected before the fix; SWE-bench has the same blind spot).
import type { TestCase, TestReport } from '../pytest/test-report';
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
  const tests: TestCase[] = [...instance.failToPass, ...instance.passToPass].map((nodeid) => {
    const ran = collected.get(nodeid);
    return {
      nodeid,
      outcome: 'passed',
      file: ran?.file ?? fileOf(nodeid),
      ...(ran?.lineno !== undefined ? { lineno: ran.lineno } : {}),
      phases: { setup: { outcome: 'passed' }, call: { outcome: 'passed' }, teardown: { outcome: 'passed' } },
    };
  });
  return { format: run.format, exitCode: 0, summary: { passed: tests.length, total: tests.length, collected: tests.length }, tests };
}

/** SWE-bench's verdict on a report: every FAIL_TO_PASS and every PASS_TO_PASS test passes. */
export function instanceResolution(
  report: TestReport,
  instance: SweBenchInstance,
): { resolved: boolean; failToPass: [number, number]; passToPass: [number, number] } {
  const passed = new Set(report.tests.filter((t) => t.outcome === 'passed').map((t) => t.nodeid));
  const count = (ids: readonly string[]): [number, number] => [ids.filter((id) => passed.has(id)).length, ids.length];
  const failToPass = count(instance.failToPass);
  const passToPass = count(instance.passToPass);
  return { resolved: failToPass[0] === failToPass[1] && passToPass[0] === passToPass[1], failToPass, passToPass };
}
