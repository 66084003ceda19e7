// Each agent try runs with a home of its own: a fresh folder under the task's hidden state, with
// the XDG folders and the temp folder inside it. It holds only the configuration its preset writes
// (the endpoint) or, when the CLI keeps its own login, a copy of that login. The user's home is
// never the agent's to write, and nothing one try leaves there reaches the next.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { presetById, type AgentPresetId } from './presets';

/** Folders below the home, and the variables that point at them. */
const LAYOUT: readonly { variable: string; dir: string }[] = [
  { variable: 'XDG_CONFIG_HOME', dir: '.config' },
  { variable: 'XDG_DATA_HOME', dir: '.local/share' },
  { variable: 'XDG_STATE_HOME', dir: '.local/state' },
  { variable: 'XDG_CACHE_HOME', dir: '.cache' },
  { variable: 'TMPDIR', dir: 'tmp' },
];

/** The environment of an agent whose home is `seenAs` (the path the agent sees: the host path, or where a container mounts it). */
export function homeEnvironment(seenAs: string): Record<string, string> {
  const env: Record<string, string> = { HOME: seenAs, USERPROFILE: seenAs };
  for (const { variable, dir } of LAYOUT) env[variable] = path.posix.join(seenAs, dir);
  env.TMP = env.TMPDIR;
  env.TEMP = env.TMPDIR;
  return env;
}

/** Empties `dir` and lays out a fresh home in it. */
export async function freshHome(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
  for (const { dir: sub } of LAYOUT) await fs.mkdir(path.join(dir, sub), { recursive: true, mode: 0o700 });
}

/** A login file larger than this is not a login: it is not copied. */
const MAX_LOGIN_FILE = 1024 * 1024;

/** Copies the preset's login files that exist in `userHome` into `home`; returns the ones copied. */
export async function copyLogin(preset: AgentPresetId, userHome: string, home: string): Promise<string[]> {
  const copied: string[] = [];
  for (const rel of presetById(preset).loginFiles) {
    const from = path.join(userHome, rel);
    // lstat: a link in the user's home is not followed into somewhere else.
    const st = await fs.lstat(from).catch(() => undefined);
    if (!st?.isFile() || st.size > MAX_LOGIN_FILE) continue;
    const to = path.join(home, rel);
    await fs.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await fs.copyFile(from, to);
    await fs.chmod(to, 0o600);
    copied.push(rel);
  }
  return copied;
}

/** Writes files below `home` (paths relative to it), private to the owner. */
export async function writeHomeFiles(home: string, files: readonly { path: string; content: string }[]): Promise<void> {
  for (const f of files) {
    const to = path.join(home, f.path);
    await fs.mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await fs.writeFile(to, f.content, { mode: 0o600 });
  }
}
