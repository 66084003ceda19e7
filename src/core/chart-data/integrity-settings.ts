// sweci.integrity.*: how scores treat iterations whose integrity is in doubt. One parser for the
// extension's settings and the command line.
import { readFlag, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';

export interface IntegritySettings {
  /** Score iterations flagged for harness tampering as not run (default: flagged, scored, like the reference). */
  excludeHarnessTampering: boolean;
}

export function readIntegritySettings(read: SettingReader, label: SettingLabel = settingName): IntegritySettings {
  return { excludeHarnessTampering: readFlag(read, label, 'integrity.excludeHarnessTampering', false) };
}
