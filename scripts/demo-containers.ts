// The containers the demo's editor starts. Its extension hosts die with code-server's process
// group, before they can remove theirs; each container names the demo's session (the
// SWECI_CONTAINER_SESSION the demo gives code-server), so the demo removes them after it.
import { removeSessionContainers, SESSION_ENV } from '../src/core/runtime/docker/container-owner';
import { connectDocker, engineAnswers } from '../src/core/runtime/docker/docker-connection';

/** A session name for one demo: the environment code-server and its extension hosts get. */
export function demoSessionEnv(): Record<string, string> {
  return { [SESSION_ENV]: `demo-${process.pid}-${Date.now().toString(36)}` };
}

/**
 * Removes the containers of the session once their owners are gone (code-server was just
 * stopped: waits a few seconds for its processes to end), and says how many.
 */
export async function removeDemoContainers(env: Record<string, string>, waitMs = 10_000): Promise<void> {
  const session = env[SESSION_ENV];
  const conn = connectDocker();
  if (!session || !(await engineAnswers(conn))) return;
  const { removed, left } = await removeSessionContainers(conn.docker, session, waitMs);
  if (removed > 0) console.error(`Removed ${removed} ${removed === 1 ? 'container' : 'containers'} the editor had started.`);
  if (left > 0) console.error(`${left} of the editor's containers still belong to a running process: left to it.`);
}
