// Removing a Podman store a test made in its own folder. A file of its own: the Podman helpers
// reach the shared Docker helper (the demo image), and a test file that does is planned into the
// unit tier's serial lane (test/unit-lanes.ts), where a store of the test's own does not belong.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { PodmanSettings } from '../../../src/core/runtime/runtime-settings';
import { processesUnder, waitDead } from '../runtime/process-helpers';

/**
 * Empties a Podman store a test made under `folder`, so that removing the folder removes it all.
 * First every process still naming the folder ends: Podman's exec monitors outlive their container
 * and, at the end of their exit delay, run a cleanup that makes the store again (and mounts its
 * overlay folder on itself) after the folder was removed; on this machine ten folders and their
 * mounts were left that way. Then the store's images, then the overlay driver's mounts of its own
 * folder (one per podman process that found it unmounted).
 */
export async function emptyPodmanStore(store: PodmanSettings, folder: string): Promise<void> {
  for (let left = processesUnder(folder); left.length > 0; left = processesUnder(folder)) {
    const pids = left.map((p) => Number(p.split(' ')[0]));
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    for (const pid of pids) if (!(await waitDead(pid))) throw new Error(`process ${pid} under ${folder} did not end when killed`);
  }
  spawnSync('podman', ['--root', store.root, '--runroot', store.runroot, '--storage-driver', 'overlay', 'rmi', '-a', '-f'], { stdio: 'ignore' });
  for (let i = 0; i < 20 && spawnSync('umount', [path.join(store.root, 'overlay')], { stdio: 'ignore' }).status === 0; i++);
}
