// The task images SWE-CI loaded into the engine, told from every other image by a label. A
// loaded archive's image cannot be labelled in place (labels are part of an image's config,
// and so of its id), so right after `docker load` an image that only adds the label is made
// FROM it under the archive's tag: no layer is added, and the loaded image stays as its parent.
// Removing ours by its tags then removes the parent too. An image SWE-CI did not load (one you
// loaded or built, `sweci.docker.image`, an image of another tool) has no label and is never
// listed or removed here.
import * as tar from 'tar-stream';
import { UserError } from '../../util/errors';
import { createContainerOn, type DockerConnection } from './docker-connection';
import { engineMessage, isConnectionError, statusOf, unavailable } from './docker-errors';
import { managedLabels } from './container-owner';
import { forgetImageUse, readImageUse } from './image-use';

/** On an image SWE-CI loaded from an image.tar.gz: the id of the image the archive holds. */
export const LOADED_FROM_LABEL = 'dev.swe-ci.loaded-from';
/** On an image SWE-CI loaded: the content digest of the archive it came from (archive-digest.ts), so it is found again without loading it. */
export const ARCHIVE_LABEL = 'dev.swe-ci.archive';

export interface TaskImage {
  /** `sha256:…` */
  id: string;
  /** Its tags; none when another load took its tag (then it is shown by id). */
  tags: string[];
  /** Bytes in the engine, its layers included (as `docker image ls` shows it). */
  size: number;
  /** When the label was put on: the load. */
  loaded: Date;
  /** The last use recorded (image-use.ts), else the load. */
  lastUsed: Date;
  /** The tasks recorded as using it. */
  tasks: string[];
  /** Containers made from it, in any state: while there is one the image is in use. */
  containers: number;
}

/**
 * The id the archive's image had, when the image is one SWE-CI loaded: it carries the label and
 * its parent is that image. An image built FROM one of ours (an agent image, as the README
 * shows) inherits the label, but its parent is ours, not the archive's: it is not ours to remove.
 */
export function loadedFrom(image: { labels?: Record<string, string> | null; parent?: string | null }): string | undefined {
  const v = image.labels?.[LOADED_FROM_LABEL];
  return typeof v === 'string' && v !== '' && image.parent && digestOf(v) === digestOf(image.parent) ? v : undefined;
}

/** An image id without its algorithm: Docker says `sha256:<hex>`, Podman's parent field only `<hex>`. */
export const digestOf = (id: string): string => id.replace(/^sha256:/, '');

/**
 * Puts our label on the image just loaded as `reference` (the archive's tag) from the archive's
 * image `sourceId`; returns the labelled image's id. The engine's build cache gives the same
 * image when the same archive is labelled again (two processes loading one archive at once).
 */
export async function labelLoadedImage(conn: DockerConnection, reference: string, sourceId: string, archiveDigest?: string): Promise<string> {
  const pack = tar.pack();
  const archive = archiveDigest ? ` ${JSON.stringify(ARCHIVE_LABEL)}=${JSON.stringify(archiveDigest)}` : '';
  pack.entry({ name: 'Dockerfile' }, `FROM ${sourceId}\nLABEL ${JSON.stringify(LOADED_FROM_LABEL)}=${JSON.stringify(sourceId)}${archive}\n`);
  pack.finalize();
  let id: string | undefined;
  try {
    const stream = await conn.docker.buildImage(pack, { t: reference, pull: false, rm: true, forcerm: true });
    await new Promise<void>((resolve, reject) => {
      conn.docker.modem.followProgress(
        stream,
        (err: Error | null, events: Array<{ error?: string; errorDetail?: { message?: string }; aux?: { ID?: string } }>) => {
          if (err) return reject(err);
          const failed = events.find((e) => e.error || e.errorDetail);
          if (failed) return reject(new Error(failed.errorDetail?.message ?? failed.error));
          id = events.find((e) => typeof e.aux?.ID === 'string')?.aux?.ID;
          resolve();
        },
      );
    });
  } catch (err) {
    if (isConnectionError(err)) throw unavailable(conn.address, `labelling the image ${reference}`, err);
    throw new UserError(`Docker loaded ${reference} but could not label it as a task image SWE-CI loaded: ${engineMessage(err)}.`, { cause: err });
  }
  return id ?? (await conn.docker.getImage(reference).inspect()).Id;
}

/** Every image SWE-CI loaded that the engine has, with its size, last use and containers. */
export async function listTaskImages(conn: DockerConnection): Promise<TaskImage[]> {
  let images: Awaited<ReturnType<DockerConnection['docker']['listImages']>>;
  let containers: Awaited<ReturnType<DockerConnection['docker']['listContainers']>>;
  try {
    [images, containers] = await Promise.all([conn.docker.listImages({ filters: { label: [LOADED_FROM_LABEL] } }), conn.docker.listContainers({ all: true })]);
  } catch (err) {
    if (isConnectionError(err)) throw unavailable(conn.address, 'listing the task images', err);
    throw err;
  }
  const users = new Map<string, number>();
  for (const c of containers) users.set(c.ImageID, (users.get(c.ImageID) ?? 0) + 1);
  const out: TaskImage[] = [];
  for (const image of images) {
    if (!loadedFrom({ labels: image.Labels, parent: image.ParentId })) continue;
    const loaded = new Date(image.Created * 1000);
    const use = await readImageUse(image.Id);
    out.push({
      id: image.Id,
      tags: (image.RepoTags ?? []).filter((t) => t !== '<none>:<none>'),
      size: image.Size,
      loaded,
      lastUsed: use && use.lastUsed > loaded ? use.lastUsed : loaded,
      tasks: use?.tasks ?? [],
      containers: users.get(image.Id) ?? 0,
    });
  }
  return out;
}

export type RemoveOutcome = 'removed' | 'in-use';

/**
 * Removes one of our images: each tag (the last one deletes it, with the loaded parent), or the
 * id when it has none. Never forced: while a container uses it the engine refuses, and it stays.
 */
export async function removeTaskImage(conn: DockerConnection, image: Pick<TaskImage, 'id' | 'tags'>): Promise<RemoveOutcome> {
  const names = image.tags.length > 0 ? image.tags : [image.id];
  for (const name of names) {
    try {
      await conn.docker.getImage(name).remove();
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) continue;
      if (status === 409) return 'in-use';
      if (isConnectionError(err)) throw unavailable(conn.address, `removing the image ${name}`, err);
      throw new UserError(`Docker could not remove the image ${name}: ${engineMessage(err)}`, { cause: err });
    }
  }
  const left = await conn.docker
    .getImage(image.id)
    .inspect()
    .then(
      () => true,
      (err: unknown) => statusOf(err) !== 404,
    );
  if (left) return 'in-use';
  await forgetImageUse(image.id);
  return 'removed';
}

/**
 * Keeps `image` in use while a task has it open: a container made from it and never started.
 * Containers are made per command, so between two commands nothing else shows the image is
 * needed; with this, another run's budget (or `sweci images prune`) leaves it alone. The
 * container carries our labels, so one left by a crash is removed as any other of ours.
 */
export async function holdImage(conn: DockerConnection, image: string): Promise<() => Promise<void>> {
  const container = await createContainerOn(conn, {
    Image: image,
    Cmd: ['sweci-image-hold'],
    Entrypoint: [],
    Labels: managedLabels('image-hold'),
    NetworkDisabled: true,
    HostConfig: { NetworkMode: 'none' },
  });
  return async () => {
    await container.remove({ force: true }).catch(() => undefined);
  };
}
