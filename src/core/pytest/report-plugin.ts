// Where our own pytest report plugin (report-plugin/sweci_pytest_report.py) is on this machine.
// The bundles (dist/) carry a copy next to them; compiled sources (out/src/core/pytest/) use
// the one in the source tree.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The module pytest loads with `-p`. */
export const REPORT_PLUGIN_MODULE = 'sweci_pytest_report';

/** Where a container sees the plugin's folder (mounted read-only). */
export const CONTAINER_REPORT_PLUGIN_DIR = '/sweci/report-plugin';

let found: string | undefined;

/** The folder holding the plugin module; throws when the installation lacks it. */
export function reportPluginDir(): string {
  if (found) return found;
  const file = `${REPORT_PLUGIN_MODULE}.py`;
  const candidates = [path.join(__dirname, 'report-plugin'), path.resolve(__dirname, '../../../../src/core/pytest/report-plugin')];
  const dir = candidates.find((d) => fs.existsSync(path.join(d, file)));
  if (!dir) {
    throw new Error(`SWE-CI's pytest report plugin (${file}) is missing from this installation (looked in ${candidates.join(', ')}). Reinstall the extension, or set sweci.pytest.reportFormat to json-report or junit.`);
  }
  found = dir;
  return dir;
}
