// The buttons an error toast offers, from the error alone (no vscode here, so unit tests can
// check that a setting at fault is named by its real key).
import { UserError } from '../core/util/errors';

const SHOW_LOG = 'Show Log';
export const OPEN_SETTINGS = 'Open Settings';

/** The full settings key (`sweci.…`) an error points at, if any. */
export function settingOf(err: unknown): string | undefined {
  return err instanceof UserError && err.setting ? `sweci.${err.setting}` : undefined;
}

/** Open Settings first when a setting is the fix: it is what the user came to do. */
export function errorButtons(err: unknown): string[] {
  return settingOf(err) ? [OPEN_SETTINGS, SHOW_LOG] : [SHOW_LOG];
}

/** Where a setting's value in force was written, as VS Code's inspect() reports it. */
export interface SettingInspection {
  workspaceFolderValue?: unknown;
  workspaceValue?: unknown;
}

/**
 * The settings editor to open at a setting: the workspace's when the value in force is written
 * there (or in a folder's), so the user sees the value that is used, not the User value it hides.
 */
export function settingsCommandFor(inspection: SettingInspection | undefined): 'workbench.action.openWorkspaceSettings' | 'workbench.action.openSettings' {
  return inspection?.workspaceFolderValue !== undefined || inspection?.workspaceValue !== undefined
    ? 'workbench.action.openWorkspaceSettings'
    : 'workbench.action.openSettings';
}
