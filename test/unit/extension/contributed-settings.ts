// package.json's contributes.configuration as tests read it: one object or a list of
// categories, read from the repository (not a compiled copy), with each %key% replaced by its
// English text from package.nls.json, as VS Code shows the manifest in English.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/repo-root';

export interface SettingSchema {
  type?: string | string[];
  enum?: unknown[];
  enumDescriptions?: string[];
  markdownEnumDescriptions?: string[];
  description?: string;
  markdownDescription?: string;
  [more: string]: unknown;
}

export interface SettingsCategory {
  id?: string;
  title?: string;
  order?: number;
  properties?: Record<string, SettingSchema>;
}

/** package.json with every "%key%" string replaced by package.nls.json's text; an unknown key throws. */
export function localizedManifest(): unknown {
  const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'), (_key, value: unknown) => {
    if (typeof value !== 'string') return value;
    const m = /^%(.+)%$/.exec(value);
    if (!m) return value;
    const text = nls[m[1]];
    if (text === undefined) throw new Error(`package.json names ${value}, which package.nls.json does not define`);
    return text;
  });
}

export function settingsCategories(): SettingsCategory[] {
  const pkg = localizedManifest() as { contributes: { configuration: SettingsCategory | SettingsCategory[] } };
  const config = pkg.contributes.configuration;
  return Array.isArray(config) ? config : [config];
}

/** Every contributed setting by its full key. */
export function contributedSettings(): Map<string, SettingSchema> {
  return new Map(settingsCategories().flatMap((c) => Object.entries(c.properties ?? {})));
}
