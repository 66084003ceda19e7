// Room in the engine's storage for an image about to be loaded, checked before the upload: a
// load that fills the disk fails after minutes, and leaves the engine (and every other task)
// without space. `docker load` unpacks the whole archive into a folder of the engine's data
// root, then applies its layers there, so at its peak it needs twice the archive's unpacked
// size. Only an engine on this machine can be asked: its data root must be a folder here.
import { promises as fs } from 'node:fs';
import { assertFreeSpace } from '../../util/free-space';
import { engineName, type DockerConnection } from './docker-connection';

/**
 * Each engine's root once found: the engine's info costs a second per load on Podman (its service
 * asks conmon, the OCI runtime and the network tools for their versions), and the root of a running
 * engine does not move.
 */
const knownRoots = new WeakMap<DockerConnection['docker'], string>();

/** Where the engine keeps its images, when that is a folder of this machine; else undefined. */
export async function localEngineRoot(conn: DockerConnection): Promise<string | undefined> {
  // A DOCKER_HOST over TCP (or ssh) is another machine: a folder of the same name here says nothing.
  if (conn.address.startsWith('DOCKER_HOST=') && !conn.address.startsWith('DOCKER_HOST=unix://')) return undefined;
  const known = knownRoots.get(conn.docker);
  if (known) return known;
  const root = conn.engine?.storageRoot ?? (await infoRoot(conn));
  if (!root) return undefined;
  const st = await fs.stat(root).catch(() => undefined);
  if (!st?.isDirectory()) return undefined;
  knownRoots.set(conn.docker, root);
  return root;
}

/** The data root the engine reports (Docker's info; Podman's when its store is its default). */
async function infoRoot(conn: DockerConnection): Promise<string | undefined> {
  const info = (await conn.docker.info().catch(() => undefined)) as { DockerRootDir?: unknown } | undefined;
  return typeof info?.DockerRootDir === 'string' ? info.DockerRootDir : undefined;
}

/** Refuses, with the bytes needed and free, a load of `file` (`unpackedBytes` of tar) that would not fit. */
export async function assertRoomToLoad(conn: DockerConnection, file: string, unpackedBytes: number): Promise<void> {
  const root = await localEngineRoot(conn);
  if (!root) return;
  const factor = conn.engine?.loadPeakFactor ?? 2;
  await assertFreeSpace(
    root,
    factor * unpackedBytes,
    `loading ${file} into ${engineName(conn)} (${factor} times its unpacked size of ${unpackedBytes} bytes: the engine unpacks the archive, then applies its layers)`,
    "Nothing was loaded. Free space there (sweci images prune removes the task images SWE-CI loaded; docker image prune others), set sweci.docker.imageBudgetGb so old task images are removed, or move the engine's data-root to a larger disk.",
  );
}
