// summary.jsonl lines, exactly as the reference writes them.
import * as path from 'node:path';
import type { TestReport } from '../pytest/test-report';
import { detailFileNames } from './detail-file-name';
import { firstLongrepr, lastLine } from './longrepr';
import { indexById, nonPassedIds } from './non-passed';

export const NOT_COLLECTED_DESCRIPTION =
  "This test was not properly collected or executed in the current run, so no detailed traceback is available. However, it was recorded as 'passed' in the target report.";

export interface SummaryOptions {
  /**
   * The detail folder as the agent will see it: the real absolute path of non-passed/, or
   * `/app/non-passed` when the agent runs in a container.
   */
  detailDir: string;
}

export interface SummaryLine {
  nodeid: string;
  /** The JSON line, without its newline. */
  line: string;
  /** Detail file name, for tests in the current report. */
  detailName?: string;
}

export function buildSummary(current: TestReport | undefined, target: TestReport, options: SummaryOptions): SummaryLine[] {
  const ids = nonPassedIds(current, target);
  const currentById = indexById(current);
  const names = detailFileNames(ids.filter((id) => currentById.has(id)));
  // Plain concatenation: path.join's normalisation costs more than the rest of a line.
  const sep = separatorFor(options.detailDir);
  const dirPrefix = options.detailDir.endsWith(sep) ? options.detailDir : options.detailDir + sep;
  return ids.map((nodeid) => {
    const test = currentById.get(nodeid);
    if (!test) return { nodeid, line: jsonLine(nodeid, NOT_COLLECTED_DESCRIPTION) };
    const detailName = names.get(nodeid) as string;
    const failure = firstLongrepr(test);
    const stage = failure ? ` at ${failure.phase} stage` : '';
    const reason = failure ? `Reason: ${lastLine(failure.longrepr)}` : '';
    const where = dirPrefix + detailName;
    const description = `Test ${test.outcome}${stage}. ${reason}. Detailed traceback is recorded in ${where}`;
    return { nodeid, line: jsonLine(nodeid, description), detailName };
  });
}

export function buildSummaryLines(current: TestReport | undefined, target: TestReport, options: SummaryOptions): string[] {
  return buildSummary(current, target, options).map((s) => s.line);
}

/**
 * Python's json.dumps(..., ensure_ascii=False) layout: ", " and ": " separators, keys in
 * order test, description. JSON.stringify escapes strings the same way.
 */
function jsonLine(test: string, description: string): string {
  return `{"test": ${JSON.stringify(test)}, "description": ${JSON.stringify(description)}}`;
}

/** A container path (`/app/...`) stays posix even on a Windows host. */
function separatorFor(dir: string): string {
  return dir.startsWith('/') ? '/' : path.sep;
}
