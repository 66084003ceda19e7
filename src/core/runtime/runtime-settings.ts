// Where a task's commands run, as the user configured it: one parser for the extension's
// settings (`sweci.runtime`, `sweci.docker.*`, `sweci.podman.*`) and the command line's options, so both mean
// the same by the same words.
import { UserError } from '../util/errors';
import { readChoice, readCount, readFlag, readPathList, readText, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { DEFAULT_SANDBOX_USER, DEFAULT_STEP_LIMITS, readSandboxUser, readStepLimits, type SandboxUser, type StepLimits } from './step-limits';

export const RUNTIME_CHOICES = ['auto', 'docker', 'podman', 'local'] as const;
export type RuntimeChoice = (typeof RUNTIME_CHOICES)[number];

/** Local confinement: bubblewrap when it works here (auto), always (an error without it), or never. */
export const SANDBOX_CHOICES = ['auto', 'bubblewrap', 'off'] as const;
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number];

export interface DockerSettings {
  /** An image the engine has; empty: the task's own image.tar.gz. */
  image: string;
  /** The engine's socket; empty: DOCKER_HOST, else the default socket. */
  socketPath: string;
  /** The interpreter inside the image (the reference runs `python -m pytest`). */
  python: string;
  /** Whether pytest containers may reach the network (the code under test); default no. */
  network: boolean;
  /** The image agents with runIn "container" run in; empty: the task's image. */
  agentImage: string;
  /**
   * The network of agent containers: `bridge` (Docker's default), `host` (reaches a model server
   * on this machine's loopback), or `container:<name>` (another container's network). Only for
   * agents whose network is open (sweci.agents.network): the others have Docker's `none`.
   */
  agentNetwork: string;
  /** CPUs a container may use; 0: no limit. (Memory and processes: sweci.limits.*, as for the sandbox.) */
  cpus: number;
  /**
   * GB (10^9 bytes) the task images SWE-CI loaded may take in the engine together; past it the
   * least recently used ones no container holds are removed (docker/image-budget.ts). 0: no budget.
   */
  imageBudgetGb: number;
}

/**
 * Where Podman keeps its images and its run state. Podman runs as whoever runs SWE-CI (rootless
 * for a user, rootful for root); a cluster points both at node-local disk. The image, interpreter,
 * CPUs and networks of sweci.docker.* hold for Podman's containers too.
 */
export interface PodmanSettings {
  /** Podman's --root (the image store); empty: Podman's own default for this user. */
  root: string;
  /** Podman's --runroot (state of running containers); empty: Podman's own default. */
  runroot: string;
}

/**
 * Settings that are read no more, and the one that took their place: containers are held by the
 * same limits as sandboxed steps. A value left in settings would otherwise be silently ignored.
 */
const REPLACED: Record<string, string> = { 'docker.memoryMb': 'limits.memoryMb', 'docker.pidsLimit': 'limits.processes' };

export interface RuntimeSettings {
  runtime: RuntimeChoice;
  sandbox: SandboxChoice;
  /** Host paths a sandboxed agent or pytest may read besides the system folders and its tools. */
  sandboxReadablePaths: string[];
  /** Host folders a sandboxed agent or pytest may also write (a custom agent's own log or cache). */
  sandboxWritablePaths: string[];
  /** Who sandboxed steps run as when SWE-CI runs as root (never root itself). */
  sandboxUser: SandboxUser;
  /** What each sandboxed step and each container may use (sweci.limits.*). */
  limits: StepLimits;
  docker: DockerSettings;
  podman: PodmanSettings;
}

export const DEFAULT_RUNTIME_SETTINGS: RuntimeSettings = {
  runtime: 'auto',
  sandbox: 'auto',
  sandboxReadablePaths: [],
  sandboxWritablePaths: [],
  sandboxUser: DEFAULT_SANDBOX_USER,
  limits: DEFAULT_STEP_LIMITS,
  docker: { image: '', socketPath: '', python: 'python', network: false, agentImage: '', agentNetwork: 'bridge', cpus: 0, imageBudgetGb: 0 },
  podman: { root: '', runroot: '' },
};

export function readRuntimeSettings(read: SettingReader, label: SettingLabel = settingName): RuntimeSettings {
  const d = DEFAULT_RUNTIME_SETTINGS.docker;
  for (const [gone, now] of Object.entries(REPLACED)) {
    if (read(gone) === undefined || read(gone) === null) continue;
    const name = label(gone);
    throw new UserError(
      `${name.charAt(0).toUpperCase()}${name.slice(1)} is no longer read: containers and sandboxed steps share ${label(now)}. Set that instead, and remove ${label(gone)}.`,
      { setting: gone },
    );
  }
  return {
    // The first choice, auto, is the default.
    runtime: readChoice(read, label, 'runtime', RUNTIME_CHOICES),
    sandbox: readChoice(read, label, 'sandbox', SANDBOX_CHOICES),
    sandboxReadablePaths: readPathList(read, label, 'sandboxReadablePaths'),
    sandboxWritablePaths: readPathList(read, label, 'sandboxWritablePaths'),
    sandboxUser: readSandboxUser(read, label),
    limits: readStepLimits(read, label),
    docker: {
      image: readText(read, label, 'docker.image', d.image),
      socketPath: readText(read, label, 'docker.socketPath', d.socketPath),
      python: readText(read, label, 'docker.python', d.python) || d.python,
      network: readFlag(read, label, 'docker.network', d.network),
      agentImage: readText(read, label, 'docker.agentImage', d.agentImage),
      agentNetwork: readAgentNetwork(read, label, d.agentNetwork),
      cpus: readCount(read, label, 'docker.cpus', d.cpus, 'CPUs'),
      imageBudgetGb: readCount(read, label, 'docker.imageBudgetGb', d.imageBudgetGb, 'GB'),
    },
    podman: {
      root: readPodmanFolder(read, label, 'podman.root'),
      runroot: readPodmanFolder(read, label, 'podman.runroot'),
    },
  };
}

function readAgentNetwork(read: SettingReader, label: SettingLabel, fallback: string): string {
  const v = readText(read, label, 'docker.agentNetwork', fallback) || fallback;
  if (v === 'bridge' || v === 'host' || /^container:[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(v)) return v;
  throw new UserError(
    `${label('docker.agentNetwork')} must be "bridge", "host" or "container:<name>", not ${JSON.stringify(v)}. "host" lets agent containers reach a model server on this machine's loopback.`,
    { setting: 'docker.agentNetwork' },
  );
}

/** An absolute folder (Podman resolves a relative one against wherever it was started). */
function readPodmanFolder(read: SettingReader, label: SettingLabel, key: string): string {
  const v = readText(read, label, key, '').trim();
  if (v === '' || v.startsWith('/')) return v;
  throw new UserError(`${label(key)} must be an absolute folder, not ${JSON.stringify(v)}. Leave it empty for Podman's own default.`, { setting: key });
}
