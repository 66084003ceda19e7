// package.json's contributes.configuration as tests read it: one object or a list of
// categories, read from the repository (not a compiled copy).
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

export function settingsCategories(): SettingsCategory[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { configuration: SettingsCategory | SettingsCategory[] };
  };
  const config = pkg.contributes.configuration;
  return Array.isArray(config) ? config : [config];
}

/** Every contributed setting by its full key. */
export function contributedSettings(): Map<string, SettingSchema> {
  return new Map(settingsCategories().flatMap((c) => Object.entries(c.properties ?? {})));
}
