// sweci.sequence.*: how a task sequence runs. One parser for the extension's settings and the CLI
// (where --memory sets it).
import { readFlag, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';

export interface SequenceRunSettings {
  /** Carry the agents' memory folder from task to task (off: the paper's no-memory baseline). */
  memory: boolean;
}

export function readSequenceSettings(read: SettingReader, label: SettingLabel = settingName): SequenceRunSettings {
  return { memory: readFlag(read, label, 'sequence.memory', false) };
}
