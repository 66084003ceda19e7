// One way to run git: simple-git with settings that make results independent of the user's config.
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';
import { harnessTool } from './trusted-program';

export interface GitRunOptions {
  signal?: AbortSignal;
  /** Extra environment (e.g. GIT_INDEX_FILE, GIT_AUTHOR_DATE); each key is allowed past simple-git's guard. */
  env?: Readonly<Record<string, string>>;
  /** simple-git's opt-ins for flags it blocks by default; only for constant, reviewed arguments. */
  unsafe?: SimpleGitOptions['unsafe'];
  /**
   * Read the user's global and system git config. Only for the user's own repositories (a git
   * pair's source); the task's repositories never do, because an agent can write ~/.gitconfig
   * (a filter or textconv command there would run on the harness's next `git add` or diff).
   */
  userConfig?: boolean;
}

// Line-ending conversion or signing from a global config would change what we check out or commit.
// Hooks and an fsmonitor come from the repository itself, which an agent can write: our git never
// runs them (command-line config outranks the repository's own).
const FIXED_CONFIG = [
  'core.autocrlf=false',
  'core.safecrlf=false',
  'commit.gpgsign=false',
  'tag.gpgsign=false',
  'advice.detachedHead=false',
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
];

/** Keys simple-git refuses to pass through; ambient ones are dropped, explicit ones must be allowed. */
function isGuardedKey(key: string): boolean {
  const k = key.toLowerCase();
  return k.startsWith('git_') || k === 'pager' || k === 'prefix' || k === 'ssh_askpass' || k === 'editor' || k === 'visual';
}

/** A simple-git instance rooted at `dir` (which must exist). Ambient GIT_* variables are not inherited. */
export function gitAt(dir: string, options: GitRunOptions = {}): SimpleGit {
  const extra = options.env ?? {};
  const git = simpleGit({
    baseDir: dir,
    // Found once, never in a folder an agent could write (a task folder).
    binary: harnessTool('git'),
    config: FIXED_CONFIG,
    trimmed: false,
    allowEnvironment: ['GIT_TERMINAL_PROMPT', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', ...Object.keys(extra)],
    ...(options.signal ? { abort: options.signal } : {}),
    // simple-git guards these keys; our constant values only ever switch them off (hooks, fsmonitor)
    // or point the global config at nothing (GIT_CONFIG_GLOBAL=/dev/null).
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true, allowUnsafeConfigPaths: !options.userConfig, ...options.unsafe },
  });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !isGuardedKey(k)) env[k] = v;
  // Never wait for a credential prompt: all our git work is local.
  const isolation: Record<string, string> = options.userConfig ? {} : { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  git.env({ ...env, GIT_TERMINAL_PROMPT: '0', ...isolation, ...extra });
  return git;
}
