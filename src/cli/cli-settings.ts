// The command line's options as settings: each flag names one key of the extension's settings,
// a --config file may hold any of them, a flag wins over the file, and every value goes through
// the core's one parser, whose errors then name the flag (or the file) the value came from.
import { Option, type Command } from 'commander';
import { layered, type SettingsFile } from '../core/util/settings-file';
import type { SettingLabel, SettingReader } from '../core/util/setting-reader';
import { UserError } from '../core/util/errors';

/** Setting key → the flag that sets it. */
export const FLAG_KEYS: Record<string, string> = {
  python: '--python',
  'pytest.timeoutSeconds': '--timeout',
  'pytest.reportFormat': '--format',
  'pytest.env': '--env',
  'pytest.network': '--pytest-network',
  runtime: '--runtime',
  sandbox: '--sandbox',
  sandboxReadablePaths: '--sandbox-readable',
  sandboxWritablePaths: '--sandbox-writable',
  sandboxUser: '--sandbox-user',
  'limits.processes': '--max-processes',
  'limits.memoryMb': '--max-memory-mb',
  'limits.fileSizeMb': '--max-file-size-mb',
  'limits.tmpMb': '--max-tmp-mb',
  'docker.image': '--image',
  'docker.python': '--docker-python',
  'docker.cpus': '--cpus',
  'docker.socketPath': '--socket',
  'docker.imageBudgetGb': '--image-budget-gb',
  'podman.root': '--podman-root',
  'podman.runroot': '--podman-runroot',
  'loop.maxIterations': '--max-iterations',
  'architect.agent': '--architect',
  'programmer.agent': '--programmer',
  'architect.customCommand': '--architect-command',
  'programmer.customCommand': '--programmer-command',
  'agents.baseUrl': '--base-url',
  'agents.network': '--agents-network',
  'agents.maxCallsPerTry': '--max-calls-per-try',
  'agents.maxTokensPerStep': '--max-tokens-per-step',
  'agents.maxCallsBytesPerTry': '--max-calls-bytes-per-try',
  'agents.minFreeDiskMb': '--min-free-disk-mb',
  'agents.callTimeoutSeconds': '--call-timeout',
  'architect.model': '--architect-model',
  'programmer.model': '--programmer-model',
  'history.commits': '--history-commits',
  'integrity.maxFileMb': '--max-file-mb',
  'integrity.maxIterationMb': '--max-iteration-mb',
  'sequence.memory': '--memory',
  'sequence.clWeights': '--cl-weights',
  'sequence.matrix': '--matrix',
  'telemetry.otlpEndpoint': '--otlp-endpoint',
  'telemetry.captureContent': '--otel-capture-content',
};

/**
 * Flags of settings that are read no more (sweci.limits.* hold containers too): still parsed, so
 * that using one is refused with the flag to use instead (runtime-settings.ts), not ignored.
 */
const RETIRED_FLAG_KEYS: Record<string, string> = { 'docker.memoryMb': '--memory-mb' };

const flagOf = (key: string): string | undefined => FLAG_KEYS[key] ?? RETIRED_FLAG_KEYS[key];

/** commander's camelCase attribute for a flag, e.g. --memory-mb → memoryMb. */
const attribute = (flag: string): string => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export interface CliSettings {
  read: SettingReader;
  label: SettingLabel;
}

/** `defaults` fill keys neither a flag nor the file sets (e.g. the runtime a task was checked out with). */
export function cliSettings(
  values: Record<string, unknown>,
  file?: { path: string; settings: SettingsFile },
  defaults: Record<string, unknown> = {},
): CliSettings {
  const flags: SettingReader = (key) => {
    const flag = flagOf(key);
    if (!flag) return undefined;
    const v = values[attribute(flag)];
    return key === 'pytest.env' && Array.isArray(v) ? envPairs(v as string[]) : v;
  };
  const fromFlag = (key: string) => flags(key) !== undefined;
  return {
    read: layered(flags, file?.settings.read ?? (() => undefined), (key) => defaults[key]),
    label: (key) => (fromFlag(key) || !file ? (flagOf(key) ?? `sweci.${key}`) : `sweci.${key} in ${file.path}`),
  };
}

function envPairs(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UserError(`--env takes NAME=VALUE, not "${pair}".`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function addPytestOptions(cmd: Command): Command {
  return cmd
    .option('--python <exe>', 'the interpreter pytest runs with on this machine (python3)')
    .option('--timeout <seconds>', "pytest's time limit per run (3600)")
    .option('--format <format>', "pytest's report: auto, json-report, builtin or junit (auto)")
    .option('--env <NAME=VALUE>', "added to pytest's clean environment; may be repeated", collect)
    .option(
      '--pytest-network <mode>',
      "what the sandboxed code under test may reach: none (only its own loopback) or host (this machine's network; flagged not isolated) (none)",
    );
}

export function addRuntimeOptions(cmd: Command, runtimeDefault: string): Command {
  return cmd
    .option('--runtime <where>', `where the task runs: auto, docker, podman or local (${runtimeDefault})`)
    .option('--sandbox <mode>', 'local runs confined with bubblewrap: auto, bubblewrap or off (auto)')
    .option('--sandbox-readable <paths>', "comma-separated absolute paths a sandboxed agent or pytest may also read (a custom agent's files)")
    .option('--sandbox-writable <paths>', 'comma-separated absolute folders a sandboxed agent or pytest may also write')
    .option('--sandbox-user <uid:gid>', 'who sandboxed steps run as when sweci runs as root (65534:65534; never 0)')
    .option('--max-processes <n>', 'processes a sandboxed step or a container may have at once (512; 0: no limit)')
    .option('--max-memory-mb <MiB>', 'memory of a sandboxed step or a container, all its processes (half the machine, at most 8192; 0: no limit)')
    .option('--max-file-size-mb <MiB>', 'the largest file a sandboxed step or a container may write (4096; 0: no limit)')
    .option('--max-tmp-mb <MiB>', "size of a sandboxed step's or a container's own /tmp (2048; 0: no limit)")
    .option('--image <tag>', "an image the engine has, instead of the task's image.tar.gz")
    .option('--docker-python <exe>', 'the interpreter inside the image (python)')
    .addOption(new Option('--memory-mb <MiB>', 'read no more: use --max-memory-mb').hideHelp())
    .option('--cpus <n>', 'CPU limit of each container (0: no limit)')
    .option('--socket <path>', 'the Docker engine (default DOCKER_HOST, else /var/run/docker.sock)')
    .option('--podman-root <dir>', "Podman's image store (--runtime podman; default: Podman's own for this user; node-local disk on a cluster)")
    .option('--podman-runroot <dir>', "Podman's run state (--runtime podman; default: Podman's own for this user)")
    .option(
      '--image-budget-gb <GB>',
      'task images SWE-CI loaded may take this many GB in the engine; past it the least recently used unheld ones are removed (0: no budget)',
    );
}

/**
 * A value that looks like an option after an option that takes one (`--base --upload-pack=x`)
 * is a mistake far more often than a value: refuse it as a usage error. `--base=-x` still works.
 */
export function assertNoOptionLikeValues(cmd: Command, args: readonly string[]): void {
  for (let i = 0; i < args.length - 1; i++) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg.includes('=')) continue;
    const option = cmd.options.find((o) => o.long === arg);
    const next = args[i + 1];
    if (option && (option.required || option.optional) && next.startsWith('-') && !/^-\d/.test(next)) {
      throw new UsageError(`option ${arg} needs a value, and "${next}" looks like an option. To pass a value that starts with "-", write ${arg}=${next}.`);
    }
  }
}

/** A malformed command line: exit code 2 and the usage. */
export class UsageError extends Error {}
