// Where the tests run, as the Task view and the status bar show it: the core's describeEnvironment
// (which logs, records and the CLI print in English) in the display language. A container's line
// is its runtime and image, names rather than text; the local ones are words. No VS Code API, so
// unit tests run it (@vscode/l10n is configured with the extension's bundle at activation).
import * as l10n from '@vscode/l10n';
import { describeEnvironment } from '../../core/runtime/task-environment';
import type { EnvironmentRecord } from '../../core/workspace/environment-record';

export function environmentText(record: EnvironmentRecord): string {
  if (record.runtime !== 'local') return describeEnvironment(record);
  return record.isolation === 'none' ? l10n.t('local · not isolated') : record.isolation === 'sandbox' ? l10n.t('local · sandboxed') : l10n.t('local');
}
