// Which runtimes answer on this machine, and why the others do not: a line each for Check Agents
// and `sweci agents check`, before a long run finds out on its first task. Each is asked as a run
// would open it (the same connection, preflight and service), and let go at once.
import { errorMessage } from '../util/errors';
import { connectDocker, pingEngine } from './docker/docker-connection';
import { checkPodmanHost } from './podman/podman-preflight';
import { acquirePodman } from './podman/podman-service';
import type { RuntimeSettings } from './runtime-settings';
import { probeBubblewrap } from './sandbox';

export interface RuntimeProbe {
  runtime: 'docker' | 'podman' | 'local';
  answers: boolean;
  /** Where it answered and as what, or why it did not and what to do. */
  detail: string;
}

export async function probeRuntimes(settings: RuntimeSettings, signal?: AbortSignal): Promise<RuntimeProbe[]> {
  return Promise.all([probeDocker(settings), probePodman(settings, signal), probeLocal()]);
}

async function probeDocker(settings: RuntimeSettings): Promise<RuntimeProbe> {
  const conn = connectDocker({ socketPath: settings.docker.socketPath });
  try {
    await pingEngine(conn, 3000);
    const version = (await conn.docker.version().catch(() => undefined))?.Version;
    return { runtime: 'docker', answers: true, detail: `engine ${version ?? ''} at ${conn.address}`.replace(/ {2}/, ' ') };
  } catch (err) {
    return { runtime: 'docker', answers: false, detail: errorMessage(err) };
  }
}

async function probePodman(settings: RuntimeSettings, signal?: AbortSignal): Promise<RuntimeProbe> {
  try {
    const host = checkPodmanHost({ limits: settings.limits, cpus: settings.docker.cpus });
    const service = await acquirePodman(settings.podman, host, signal);
    try {
      const version = (await service.connection.docker.version().catch(() => undefined))?.Version;
      return { runtime: 'podman', answers: true, detail: `Podman ${version ?? ''} (${host.rootless ? 'rootless' : 'rootful, as root'})`.replace(/ {2}/, ' ') };
    } finally {
      await service.release();
    }
  } catch (err) {
    return { runtime: 'podman', answers: false, detail: errorMessage(err) };
  }
}

async function probeLocal(): Promise<RuntimeProbe> {
  const probe = await probeBubblewrap();
  if ('bwrap' in probe) return { runtime: 'local', answers: true, detail: 'sandboxed with bubblewrap' };
  return { runtime: 'local', answers: true, detail: `not isolated: bubblewrap cannot run here (${probe.problem}${probe.detail ? `: ${probe.detail}` : ''})` };
}

/** One line each, for the command line: "✓ podman  Podman 4.3.1 (rootless)". */
export function formatRuntimeProbes(probes: readonly RuntimeProbe[]): string {
  return ['Runtimes:', ...probes.map((p) => `  ${p.answers ? '✓' : '✗'} ${p.runtime.padEnd(6)}  ${p.detail}`)].join('\n');
}

/** The same as a Markdown table, for the editor's Check Agents document. */
export function runtimeProbesTable(probes: readonly RuntimeProbe[]): string {
  return [
    '| Runtime | Answers | Where and as what, or why not |',
    '|---|---|---|',
    ...probes.map((p) => `| ${p.runtime} | ${p.answers ? '✓' : '✗'} | ${p.detail.replace(/\s+/g, ' ').replace(/\|/g, '\\|')} |`),
  ].join('\n');
}
