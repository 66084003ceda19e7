// How pytest runs, as the user configured it: one parser for the extension's settings
// (`sweci.python`, `sweci.pytest.*`) and the command line's options.
import { readChoice, readCount, readStringMap, readText, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { PYTEST_NETWORK_CHOICES, type PytestNetwork } from '../runtime/task-confinement';
import type { ReportFormat } from './pytest-command';

export const REPORT_FORMAT_CHOICES = ['auto', 'json-report', 'builtin', 'junit'] as const;
/** `auto`: pytest-json-report when the interpreter has it, else our own plugin (same format). */
export type PytestFormat = 'auto' | ReportFormat;

export interface PytestSettings {
  /** The interpreter on this machine (a task's container uses sweci.docker.python). */
  python: string;
  timeoutMs: number;
  format: PytestFormat;
  /** Variables added to pytest's clean environment (sweci.pytest.env). */
  env?: Record<string, string>;
  /** sweci.pytest.network; undefined: `none`. */
  network?: PytestNetwork;
}

const DEFAULT_PYTEST_SETTINGS: PytestSettings = { python: 'python3', timeoutMs: 3600_000, format: 'auto', env: {}, network: 'none' };

export function readPytestSettings(read: SettingReader, label: SettingLabel = settingName): PytestSettings {
  const d = DEFAULT_PYTEST_SETTINGS;
  return {
    python: readText(read, label, 'python', d.python) || d.python,
    timeoutMs: readCount(read, label, 'pytest.timeoutSeconds', d.timeoutMs / 1000, 'seconds', 1) * 1000,
    format: readChoice(read, label, 'pytest.reportFormat', REPORT_FORMAT_CHOICES),
    env: readStringMap(read, label, 'pytest.env'),
    network: readChoice(read, label, 'pytest.network', PYTEST_NETWORK_CHOICES),
  };
}
