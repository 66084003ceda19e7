// A Podman store as the settings name it, and podman processes on it: every podman SWE-CI starts
// (the API service, a load) is given the same global options, so all of them see one store, and
// is started the same way, in a process group of its own that dies with us.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import * as path from 'node:path';
import { findTrustedProgram } from '../../util/trusted-program';
import type { PodmanSettings } from '../runtime-settings';
import type { PodmanHost } from './podman-preflight';

/**
 * Podman's global options for the configured store (the store SWE-CI names uses the overlay
 * driver) and, where the preflight chose one, the OCI runtime.
 */
export function podmanGlobalArgs(settings: PodmanSettings, host: Pick<PodmanHost, 'ociRuntime'>): string[] {
  return [
    ...(host.ociRuntime ? ['--runtime', host.ociRuntime] : []),
    ...(settings.root ? ['--root', settings.root, '--storage-driver', 'overlay'] : []),
    ...(settings.runroot ? ['--runroot', settings.runroot] : []),
  ];
}

/** Where Podman spools an archive while loading it: beside the store when one is named (node-local disk). */
export function podmanTmpDir(settings: PodmanSettings): string | undefined {
  return settings.root ? path.join(settings.root, 'sweci-tmp') : undefined;
}

/** The store in messages. */
export const podmanStoreName = (podman: PodmanSettings): string => (podman.root ? `Podman's store ${podman.root}` : "Podman's default store for this user");

/**
 * Starts `podman <args>` leading a process group of its own, so that one signal reaches every
 * process of it (rootless podman re-executes itself in a user namespace, and that child outlives
 * an outer podman killed alone). Where util-linux's setpriv is, podman is sent SIGTERM when we
 * die (its parent-death signal), which it passes on: a crash leaves no podman running.
 */
export function spawnPodman(
  host: Pick<PodmanHost, 'podman'>,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdio: StdioOptions },
): ChildProcess {
  const setpriv = findTrustedProgram('setpriv');
  const [command, argv] = setpriv ? [setpriv, ['--pdeathsig', 'TERM', '--', host.podman, ...args]] : [host.podman, args];
  return spawn(command, argv, { ...options, detached: true });
}
