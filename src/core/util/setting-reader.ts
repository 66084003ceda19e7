// Reading one configured value, the same way for the extension's settings and the command
// line's options: each parser (runtime, pytest) is written once against a reader and a label.
import { UserError } from './errors';

/** Reads one setting by its key below `sweci.` (e.g. `docker.memoryMb`); undefined: not set. */
export type SettingReader = (key: string) => unknown;

/** How errors name a setting: `sweci.docker.memoryMb` in the editor, `--memory-mb` on the command line. */
export type SettingLabel = (key: string) => string;

export const settingName: SettingLabel = (key) => `the setting sweci.${key}`;

const unset = (v: unknown): boolean => v === undefined || v === null;

export function readText(read: SettingReader, label: SettingLabel, key: string, fallback: string): string {
  const v = read(key);
  if (unset(v)) return fallback;
  if (typeof v !== 'string') throw new UserError(`${cap(label(key))} must be text, not ${JSON.stringify(v)}.`, { setting: key });
  return v.trim();
}

/** A number ≥ `min`; `unit` names what it counts in the error. */
export function readCount(read: SettingReader, label: SettingLabel, key: string, fallback: number, unit: string, min = 0): number {
  const v = read(key);
  if (unset(v) || v === '') return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < min) {
    const floor = min === 0 ? '0 or more (0: no limit)' : `at least ${min}`;
    throw new UserError(`${cap(label(key))} must be a number of ${unit}, ${floor}, not ${JSON.stringify(v)}.`, { setting: key });
  }
  return n;
}

export function readFlag(read: SettingReader, label: SettingLabel, key: string, fallback: boolean): boolean {
  const v = read(key);
  if (unset(v)) return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new UserError(`${cap(label(key))} must be true or false, not ${JSON.stringify(v)}.`, { setting: key });
}

/** One of `choices`; unset or empty gives the first. */
export function readChoice<T extends string>(read: SettingReader, label: SettingLabel, key: string, choices: readonly T[]): T {
  const v = read(key);
  if (unset(v) || v === '') return choices[0];
  if (typeof v === 'string' && (choices as readonly string[]).includes(v)) return v as T;
  throw new UserError(`${cap(label(key))} must be one of ${choices.join(', ')}, not ${JSON.stringify(v)}.`, { setting: key });
}

/** An object of text values (a number typed into settings.json would not reach a process as meant). */
export function readStringMap(read: SettingReader, label: SettingLabel, key: string): Record<string, string> {
  const v = read(key);
  if (unset(v)) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new UserError(`${cap(label(key))} must be an object of names to text values, not ${JSON.stringify(v)}.`, { setting: key });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v as Record<string, unknown>)) {
    if (typeof value !== 'string')
      throw new UserError(`${cap(label(key))}: the value of ${name} must be text, not ${JSON.stringify(value)}.`, { setting: key });
    out[name] = value;
  }
  return out;
}

/** The items of a comma-separated list as typed on a command line: trimmed, empty ones dropped. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A list of absolute paths (a comma-separated text on the command line). */
export function readPathList(read: SettingReader, label: SettingLabel, key: string): string[] {
  const v = read(key);
  if (unset(v) || v === '') return [];
  const list = typeof v === 'string' ? commaList(v) : v;
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || !p.startsWith('/'))) {
    throw new UserError(`${cap(label(key))} must be a list of absolute paths, e.g. ["/opt/my-agent"], not ${JSON.stringify(v)}.`, { setting: key });
  }
  return list as string[];
}

const cap = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);
