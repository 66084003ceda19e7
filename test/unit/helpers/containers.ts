// The product's containers on an engine the caller names (the shared one or one of a test's own),
// by their labels: what a test checks is left behind. Apart from helpers/docker.ts, so that a file
// with an engine of its own can use them and stay out of the unit tier's serial lane.
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { MANAGED_LABEL, OWNER_LABEL, ROLE_LABEL, ownerLabel } from '../../../src/core/runtime/docker/container-owner';

/** Every container the product made (by its labels), whoever owns it: what a test checks is left behind. */
export async function listManagedContainers(docker: DockerConnection['docker']): Promise<Array<{ id: string; owner?: string; role?: string; state: string }>> {
  const list = await docker.listContainers({ all: true, filters: { label: [MANAGED_LABEL] } });
  return list.map((c) => ({ id: c.Id, owner: c.Labels?.[OWNER_LABEL], role: c.Labels?.[ROLE_LABEL], state: c.State }));
}

/** Containers this test process made that still exist (after dispose there must be none). */
export async function ourContainers(conn: DockerConnection): Promise<string[]> {
  const mine = ownerLabel();
  return (await listManagedContainers(conn.docker)).filter((c) => c.owner === mine).map((c) => `${c.id.slice(0, 12)} (${c.role}, ${c.state})`);
}
