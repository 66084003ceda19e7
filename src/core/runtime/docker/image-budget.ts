// The image budget (sweci.docker.imageBudgetGb): 100 task images of 1-2 GB each do not fit on
// most disks, and an engine that fills its disk halfway through a run fails every task after.
// When the task images SWE-CI loaded pass the budget together, the least recently used ones are
// removed until they fit; never one a container holds (a task open anywhere holds its image,
// task-images.ts), never one SWE-CI did not load (they are not listed at all).
import { formatBytes } from '../../util/free-space';
import { plural } from '../../util/plural';
import type { DockerConnection } from './docker-connection';
import { listTaskImages, removeTaskImage, type TaskImage } from './task-images';

export const GB = 1e9;

export interface BudgetOutcome {
  removed: TaskImage[];
  /** Our images' bytes after the removals. */
  total: number;
  /** Bytes the images no container holds could not bring the total under (0: it fits). */
  over: number;
}

export interface BudgetOptions {
  /** Image ids to keep whatever their last use (the task being opened). */
  keep?: readonly string[];
  /** Bytes to leave free under the budget (an image about to be loaded). */
  room?: number;
}

/** The images the budget may remove, least recently used first. */
function candidates(images: readonly TaskImage[], keep: readonly string[]): TaskImage[] {
  return images.filter((i) => i.containers === 0 && !keep.includes(i.id)).sort((a, b) => a.lastUsed.getTime() - b.lastUsed.getTime());
}

/** Removes our least recently used free images until the rest (and `room`) fit in `budgetBytes`. */
export async function enforceImageBudget(conn: DockerConnection, budgetBytes: number, opts: BudgetOptions = {}): Promise<BudgetOutcome> {
  const images = await listTaskImages(conn);
  let total = images.reduce((sum, i) => sum + i.size, 0);
  const limit = budgetBytes - (opts.room ?? 0);
  const removed: TaskImage[] = [];
  for (const image of candidates(images, opts.keep ?? [])) {
    if (total <= limit) break;
    if ((await removeTaskImage(conn, image)) !== 'removed') continue;
    removed.push(image);
    total -= image.size;
  }
  return { removed, total, over: Math.max(0, total - limit) };
}

/** Removes every image of ours no container holds. */
export async function removeUnusedTaskImages(conn: DockerConnection): Promise<BudgetOutcome> {
  const images = await listTaskImages(conn);
  let total = images.reduce((sum, i) => sum + i.size, 0);
  const removed: TaskImage[] = [];
  for (const image of candidates(images, [])) {
    if ((await removeTaskImage(conn, image)) !== 'removed') continue;
    removed.push(image);
    total -= image.size;
  }
  return { removed, total, over: 0 };
}

/** Removes the image `id` when it is ours and nothing holds it (sweci run --evict-images, after a task finished). */
export async function evictTaskImage(conn: DockerConnection, id: string): Promise<TaskImage | undefined> {
  const image = (await listTaskImages(conn)).find((i) => i.id === id);
  if (!image || image.containers > 0) return undefined;
  return (await removeTaskImage(conn, image)) === 'removed' ? image : undefined;
}

/** What a run says when the budget removed images. */
export function budgetNote(removed: readonly TaskImage[]): string {
  const bytes = removed.reduce((n, i) => n + i.size, 0);
  return `Removed ${plural(removed.length, 'least recently used task image')} (${formatBytes(bytes)}) to stay within sweci.docker.imageBudgetGb`;
}
