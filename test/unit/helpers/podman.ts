// Real Podman for tests, as `--runtime podman` drives it: its API service started by the product
// (podman-service.ts) on a store of the tests' own (loaded once per machine, shared by the test
// files; Podman locks its store). Never skipped: without Podman these tests fail and say how to
// get it (scripts/setup.sh).
import { existsSync } from 'node:fs';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { ensureImage } from '../../../src/core/runtime/docker/ensure-image';
import { checkPodmanHost } from '../../../src/core/runtime/podman/podman-preflight';
import { acquirePodman } from '../../../src/core/runtime/podman/podman-service';

type PodmanService = Awaited<ReturnType<typeof acquirePodman>>;
import { DEFAULT_RUNTIME_SETTINGS, type PodmanSettings, type RuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { demoImageArchive } from './docker';

/** The tests' store: node-local, short run folder (unix socket paths). Root's; a user passes its own. */
export const PODMAN_TEST_STORE: PodmanSettings = {
  root: process.env.SWECI_PODMAN_TEST_ROOT ?? '/var/tmp/sweci-test-podman/root',
  runroot: process.env.SWECI_PODMAN_TEST_RUNROOT ?? '/run/sweci-test-podman',
};

/** The user the rootless tests run `sweci` as (scripts/podman-setup.sh makes it). */
export const ROOTLESS_USER = process.env.SWECI_ROOTLESS_USER ?? 'sweci-rootless';

/** Runtime settings for Podman on the tests' store (as root: rootful, held as Docker's containers are). */
export function podmanSettings(more: Partial<RuntimeSettings> = {}): RuntimeSettings {
  return { ...DEFAULT_RUNTIME_SETTINGS, runtime: 'podman', podman: PODMAN_TEST_STORE, ...more };
}

/** The product's Podman service on the tests' store, with the demo image loaded; release it after. */
export async function podmanForTests(): Promise<PodmanService> {
  if (!existsSync(demoImageArchive())) throw new Error(`${demoImageArchive()} is missing: run "bash scripts/docker-setup.sh".`);
  let service: PodmanService;
  try {
    const settings = DEFAULT_RUNTIME_SETTINGS;
    service = await acquirePodman(PODMAN_TEST_STORE, checkPodmanHost({ limits: settings.limits, cpus: settings.docker.cpus }));
  } catch (err) {
    throw new Error(`These tests need Podman: run "bash scripts/setup.sh". ${(err as Error).message}`);
  }
  await ensureImage(service.connection, { archive: demoImageArchive() });
  return service;
}

export type EngineKind = 'docker' | 'podman';

/** The engines the container suites run against. */
export const ENGINES: readonly EngineKind[] = ['docker', 'podman'];

/** A connection the test uses besides the product's own (building agent images, listing containers). */
export interface TestEngine {
  conn: DockerConnection;
  release: () => Promise<void>;
}
