// Reads the real pytest reports under test/fixtures/pytest-reports.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixturesDir } from '../helpers/repo-root';

export const reportsDir = path.join(fixturesDir, 'pytest-reports');

export function readReportFixture(name: string): string {
  return fs.readFileSync(path.join(reportsDir, name), 'utf8');
}
