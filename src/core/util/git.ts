// One way to run git: simple-git with settings that make results independent of the user's config,
// and `gitRunner`, the same git with the same settings spawned directly for the loop's hot path.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { simpleGit, type SimpleGit, type SimpleGitOptions } from 'simple-git';
import { launch } from './process-launcher';
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

/** The environment every git of ours runs with: ambient GIT_* variables dropped, no prompt, no user config unless asked. */
function gitEnv(options: Pick<GitRunOptions, 'env' | 'userConfig'>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !isGuardedKey(k)) env[k] = v;
  // Never wait for a credential prompt: all our git work is local.
  const isolation: Record<string, string> = options.userConfig ? {} : { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  return { ...env, GIT_TERMINAL_PROMPT: '0', ...isolation, ...(options.env ?? {}) };
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
  git.env(gitEnv(options));
  return git;
}

/**
 * git started directly with gitAt's binary, config and environment, its pipes left to the caller:
 * for a long-lived `cat-file --batch` or a `diff-tree --stdin` fed many lines. Only for constant,
 * reviewed arguments.
 */
export function spawnGit(dir: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  const config = FIXED_CONFIG.flatMap((c) => ['-c', c]);
  return spawn(harnessTool('git'), [...config, ...args], { cwd: dir, env: gitEnv({}), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** What a `gitRunner` offers: simple-git's `raw`, which CodeRepo and the scoring checkout use. */
export interface GitRunner {
  /**
   * git's stdout; rejects with git's stderr when it exits non-zero, with an AbortError when
   * cancelled. `input`: written to git's standard input (closed otherwise).
   */
  raw(args: readonly string[], input?: string): Promise<string>;
}

export interface GitRunnerOptions extends Omit<GitRunOptions, 'unsafe' | 'userConfig'> {
  /** More `-c key=value` settings after the fixed ones (constant, reviewed values only). */
  config?: readonly string[];
}

/**
 * git started directly with gitAt's binary, config and environment, through the process launcher
 * (a node fork costs this thread far more than git's own start). simple-git waits 50 ms after
 * every git that prints nothing (a checkout, a diff into a file); the loop runs several of those
 * per iteration. Only for constant, reviewed arguments (no simple-git guard runs here).
 */
export function gitRunner(dir: string, options: GitRunnerOptions = {}): GitRunner {
  const env = gitEnv(options);
  const config = [...FIXED_CONFIG, ...(options.config ?? [])].flatMap((c) => ['-c', c]);
  return {
    raw: async (args, input) => {
      const file = harnessTool('git');
      const r = await launch({ file, args: [...config, ...args], cwd: dir, env, input, signal: options.signal });
      if (r.code === 0) return r.stdout.toString('utf8');
      const message = r.stderr.toString('utf8').trim();
      throw new Error(message || `git ${args[0] ?? ''} exited with ${r.code ?? r.signal}`);
    },
  };
}
