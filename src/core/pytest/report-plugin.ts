// Our own pytest report plugin (report-plugin/sweci_pytest_report.py): where the installation
// has it, and the fresh copy each run imports. The bundles (dist/) carry it next to them;
// compiled sources (out/src/core/pytest/) use the one in the source tree.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The module pytest loads with `-p`. */
export const REPORT_PLUGIN_MODULE = 'sweci_pytest_report';

let found: string | undefined;

/** The folder holding the plugin module; throws when the installation lacks it. */
export function reportPluginDir(): string {
  if (found) return found;
  const file = `${REPORT_PLUGIN_MODULE}.py`;
  const candidates = [path.join(__dirname, 'report-plugin'), path.resolve(__dirname, '../../../../src/core/pytest/report-plugin')];
  const dir = candidates.find((d) => fs.existsSync(path.join(d, file)));
  if (!dir) {
    throw new Error(
      `SWE-CI's pytest report plugin (${file}) is missing from this installation (looked in ${candidates.join(', ')}). Reinstall the extension, or set sweci.pytest.reportFormat to json-report or junit.`,
    );
  }
  found = dir;
  return dir;
}

/**
 * Copies the plugin into `runDir/report-plugin` and returns that folder. A run imports its own
 * copy, beside its report: the installed file is never on a path the code under test runs with,
 * so nothing it does (bytecode, edits) reaches the next run or the installation.
 */
export async function copyReportPlugin(runDir: string): Promise<string> {
  const dir = path.join(runDir, 'report-plugin');
  await fs.promises.mkdir(dir, { recursive: true });
  const file = `${REPORT_PLUGIN_MODULE}.py`;
  await fs.promises.copyFile(path.join(reportPluginDir(), file), path.join(dir, file));
  return dir;
}
