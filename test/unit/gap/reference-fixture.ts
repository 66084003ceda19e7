// The reference harness's non-passed output for the fixture reports, and our parses of them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixturesDir } from '../helpers/repo-root';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { parseJunitXml } from '../../../src/core/pytest/parse-junit';

const reportsDir = path.join(fixturesDir, 'pytest-reports');
export const referenceDir = path.join(reportsDir, 'reference-non-passed');
/** The output root the reference was run with. */
export const REFERENCE_DETAIL_DIR = '/app/non-passed';

const read = (name: string) => fs.readFileSync(path.join(reportsDir, name), 'utf8');

export const jsonPair = { current: parseJsonReport(read('base.report.json')), target: parseJsonReport(read('target.report.json')) };
export const junitPair = { current: parseJunitXml(read('base.junit-xunit1.xml')), target: parseJunitXml(read('target.junit-xunit1.xml')) };

export const referenceLines: string[] = fs
  .readFileSync(path.join(referenceDir, 'summary.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '');

export const referenceIds: string[] = referenceLines.map((l) => (JSON.parse(l) as { test: string }).test);

/** Replaces the detail path at the end of a description, which differs by where the folder is. */
export function withPlaceholder(line: string): string {
  return line.replace(/Detailed traceback is recorded in [^"]*"\}$/, 'Detailed traceback is recorded in <DETAIL>"}');
}
