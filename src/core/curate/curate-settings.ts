// How the editor builds a candidate's environment (sweci.curate.*): the env stage's options as
// `sweci curate` takes them on its command line (--base-image, --index-url, --find-links,
// --max-repairs), read by one parser.
import { readCount, readText, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { DEFAULT_MAX_REPAIRS } from './env-stage';
import type { PipSource } from './env-image';

export interface CurateSettings extends PipSource {
  /** FROM this image; undefined: python:<X.Y>-slim by the oracle's requires-python. */
  baseImage?: string;
  maxRepairs: number;
}

export function readCurateSettings(read: SettingReader, label: SettingLabel = settingName): CurateSettings {
  const baseImage = readText(read, label, 'curate.baseImage', '');
  const indexUrl = readText(read, label, 'curate.indexUrl', '');
  const findLinks = readText(read, label, 'curate.findLinks', '');
  return {
    ...(baseImage ? { baseImage } : {}),
    ...(indexUrl ? { indexUrl } : {}),
    ...(findLinks ? { findLinks } : {}),
    maxRepairs: readCount(read, label, 'curate.maxRepairs', DEFAULT_MAX_REPAIRS, 'repairs'),
  };
}
