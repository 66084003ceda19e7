// The real Docker engine for tests: the machine's one engine, which every file that reaches this
// module shares (so those files run one at a time, in the unit tier's serial lane: test/unit-lanes.ts).
// These tests are never skipped: when no engine answers they fail and say how to get one
// (scripts/docker-setup.sh, which `npm test`'s setup runs).
import { existsSync } from 'node:fs';
import { connectDocker, pingEngine, type DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { ensureImage } from '../../../src/core/runtime/docker/ensure-image';
import { CURATE_BASE_IMAGE, DEMO_IMAGE, demoImageArchive } from '../../../scripts/demo-image';
import { buildImage } from './build-image';

export { listManagedContainers, ourContainers } from './containers';

export { CURATE_BASE_IMAGE, DEMO_IMAGE, demoImageArchive };

/** The curation tests' base image (scripts/docker-setup.sh builds it); its tag. */
export async function curateBaseImage(conn: DockerConnection): Promise<string> {
  try {
    await conn.docker.getImage(CURATE_BASE_IMAGE).inspect();
  } catch {
    throw new Error(`The engine has no ${CURATE_BASE_IMAGE}: run "bash scripts/docker-setup.sh" (it builds it from the demo image).`);
  }
  return CURATE_BASE_IMAGE;
}

/** Removes every image tagged `<repository>:*` (the images a test made under its own unique name). */
export async function removeImagesOf(conn: DockerConnection, repository: string): Promise<void> {
  const images = await conn.docker.listImages({ filters: { reference: [`${repository}:*`] } });
  for (const image of images) {
    for (const tag of image.RepoTags ?? [])
      await conn.docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
  }
}

let ready: Promise<DockerConnection> | undefined;

/** A connection to an engine that answers and has the demo image. */
export function dockerForTests(): Promise<DockerConnection> {
  ready ??= (async () => {
    const conn = connectDocker();
    try {
      await pingEngine(conn);
    } catch (err) {
      throw new Error(`These tests need a Docker engine: run "bash scripts/docker-setup.sh". ${(err as Error).message}`);
    }
    if (!existsSync(demoImageArchive())) throw new Error(`${demoImageArchive()} is missing: run "bash scripts/docker-setup.sh".`);
    // A test may have made the engine forget the image (to test loading it): load it back.
    await ensureImage(conn, { archive: demoImageArchive() });
    return conn;
  })();
  return ready;
}

/** An image FROM the demo image with the scripted test agents in /opt/sweci-agents (as a user adds an agent CLI). */
export const AGENT_IMAGE = 'sweci/demo-agents:test';
export const AGENTS_IN_IMAGE = '/opt/sweci-agents';

export async function buildAgentImage(conn: DockerConnection, agentsDir: string): Promise<string> {
  return buildImage(conn, AGENT_IMAGE, `FROM ${DEMO_IMAGE}\nCOPY agents ${AGENTS_IN_IMAGE}\n`, { agents: agentsDir });
}
