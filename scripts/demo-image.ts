// Where scripts/docker-setup.sh keeps the demo task's image: the tag and the task-style
// image.tar.gz. The demo dataset and the Docker tests use both.
import * as os from 'node:os';
import * as path from 'node:path';

export const DEMO_IMAGE = process.env.SWECI_DEMO_IMAGE ?? 'sweci/demo-env:bookworm';

/** The demo image with Debian's python3-pip and python3-venv: what `sweci curate`'s tests build environments FROM. */
export const CURATE_BASE_IMAGE = process.env.SWECI_CURATE_BASE_IMAGE ?? 'sweci/curate-python:bookworm';

export function dockerCacheDir(): string {
  if (process.env.SWECI_DOCKER_CACHE) return process.env.SWECI_DOCKER_CACHE;
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  return path.join(cache, 'swe-ci', 'docker');
}

/** The demo image as a gzipped `docker save`, like a SWE-CI dataset's data/<task_id>/image.tar.gz. */
export function demoImageArchive(): string {
  return path.join(dockerCacheDir(), 'demo-env.image.tar.gz');
}
