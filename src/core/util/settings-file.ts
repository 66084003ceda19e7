// A settings file for the CLI: JSON with the same keys as the extension's settings.json
// ("sweci.architect.agent": "codex", …). Keys are checked after parsing: a key no parser read
// is a typo or a setting that does not exist, and saying so beats ignoring it.
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { UserError, errorMessage } from './errors';
import type { SettingReader } from './setting-reader';

// The file's shape; each value is then checked by the setting parsers the extension uses too
// (runtime-settings.ts, agent-settings.ts, …), which name the setting or flag at fault.
const settingsObjectSchema = z.record(z.string(), z.unknown());

export interface SettingsFile {
  read: SettingReader;
  /** Keys of the file (without `sweci.`) no parser has read so far. */
  unread(): string[];
}

const PREFIX = 'sweci.';

function settingsFromObject(values: Record<string, unknown>, source: string): SettingsFile {
  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(values)) {
    if (!key.startsWith(PREFIX)) {
      throw new UserError(`${source}: "${key}" is not a SWE-CI setting. Keys are written as in settings.json, e.g. "sweci.architect.agent".`);
    }
    entries.set(key.slice(PREFIX.length), value);
  }
  const seen = new Set<string>();
  return {
    read: (key) => {
      seen.add(key);
      return entries.get(key);
    },
    unread: () => [...entries.keys()].filter((k) => !seen.has(k)),
  };
}

export async function readSettingsFile(file: string): Promise<SettingsFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`Cannot read the settings file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not valid JSON (${errorMessage(err)}). Write it like VS Code's settings.json, without comments.`);
  }
  const shape = settingsObjectSchema.safeParse(parsed);
  if (!shape.success) throw new UserError(`${file} must hold one JSON object of settings, e.g. {"sweci.architect.agent": "codex"}.`);
  return settingsFromObject(shape.data, file);
}

/**
 * Reads `key` from the first reader that has it (command-line flags over the file). Every reader
 * is asked: a file's key that a flag overrides is a known setting, not one read by no parser.
 */
export function layered(...readers: SettingReader[]): SettingReader {
  return (key) => readers.map((read) => read(key)).find((v) => v !== undefined);
}
