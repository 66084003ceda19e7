// The buttons an error toast offers, from the error alone (no vscode here, so unit tests can
// check that a setting at fault is named by its real key).
import { UserError } from '../core/util/errors';

export const SHOW_LOG = 'Show Log';
export const OPEN_SETTINGS = 'Open Settings';

/** The full settings key (`sweci.…`) an error points at, if any. */
export function settingOf(err: unknown): string | undefined {
  return err instanceof UserError && err.setting ? `sweci.${err.setting}` : undefined;
}

/** Open Settings first when a setting is the fix: it is what the user came to do. */
export function errorButtons(err: unknown): string[] {
  return settingOf(err) ? [OPEN_SETTINGS, SHOW_LOG] : [SHOW_LOG];
}
