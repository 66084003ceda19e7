// Every container we create carries labels naming the process that made it (host, pid and the
// pid's start time, so a reused pid is not mistaken for the owner). A window or CLI that crashed
// leaves containers behind; the next start removes those whose owner is gone. A process that
// starts an editor (the demo) can also name a session in SWECI_CONTAINER_SESSION: every
// container made under it carries that name, so it can remove them once the editor is gone.
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import type Docker from 'dockerode';
import { statusOf } from './docker-errors';

export const MANAGED_LABEL = 'dev.swe-ci.managed';
export const OWNER_LABEL = 'dev.swe-ci.owner';
export const ROLE_LABEL = 'dev.swe-ci.role';
export const SESSION_LABEL = 'dev.swe-ci.session';
/** The environment variable that names the session (inherited by the editor's extension hosts). */
export const SESSION_ENV = 'SWECI_CONTAINER_SESSION';

interface Owner {
  host: string;
  pid: number;
  /** Clock ticks since boot when the pid started (Linux); '' where unknown. */
  start: string;
}

/**
 * The start time of a pid, where the OS tells it; undefined when the pid does not exist. A zombie
 * (dead, not yet reaped: its parent died too and no init reaps it) does not exist either.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces and parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return fields[19] ?? '';
  } catch {
    if (process.platform === 'linux') return undefined;
    try {
      process.kill(pid, 0);
      return '';
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM' ? '' : undefined;
    }
  }
}

function formatOwner(o: Owner): string {
  return `${o.host}|${o.pid}|${o.start}`;
}

function parseOwner(label: string | undefined): Owner | undefined {
  const m = /^(.*)\|(\d+)\|(\d*)$/.exec(label ?? '');
  return m ? { host: m[1], pid: Number(m[2]), start: m[3] } : undefined;
}

let self: string | undefined;

/** This process as an owner label. */
export function ownerLabel(): string {
  self ??= formatOwner({ host: os.hostname(), pid: process.pid, start: processStartTime(process.pid) ?? '' });
  return self;
}

/**
 * True when the label names a process of this host that no longer exists. Containers of other
 * hosts (a shared engine) and unlabelled ones are never judged.
 */
export function ownerIsGone(label: string | undefined): boolean {
  const owner = parseOwner(label);
  if (!owner || owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return label !== ownerLabel();
  const start = processStartTime(owner.pid);
  if (start === undefined) return true;
  return owner.start !== '' && start !== '' && start !== owner.start;
}

/** The session this process's containers belong to, when its environment names a valid one. */
export function containerSession(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const session = env[SESSION_ENV];
  return session && /^[\w.-]{1,100}$/.test(session) ? session : undefined;
}

export function managedLabels(role: string): Record<string, string> {
  const session = containerSession();
  return { [MANAGED_LABEL]: '1', [OWNER_LABEL]: ownerLabel(), [ROLE_LABEL]: role, ...(session ? { [SESSION_LABEL]: session } : {}) };
}

/**
 * Removes containers left by our processes that died, and this process's own stopped ones (a
 * container is used once and never restarted, so a stopped one is litter, e.g. after the engine
 * restarted under a run). Another live process's stopped container stays: it is that process's
 * to read (why it ended, a limit it hit) and then remove, which a second window or CLI starting
 * a run must not take from it. Returns how many are gone.
 */
export async function removeStaleContainers(docker: Docker): Promise<number> {
  const list = await docker.listContainers({ all: true, filters: { label: [MANAGED_LABEL] } });
  let removed = 0;
  for (const c of list) {
    const owner = c.Labels?.[OWNER_LABEL];
    const stopped = c.State === 'exited' || c.State === 'dead';
    if (!ownerIsGone(owner) && !(stopped && owner === ownerLabel())) continue;
    if (await removeForGood(docker, c.Id)) removed++;
  }
  return removed;
}

/**
 * Removes a container; true once it is gone, whoever removed it. Another SWE-CI process starting
 * a run may be removing it too (409, or 404 when it finished first), and a loaded engine may fail
 * a kill it then completes: this waits until it is gone and tries once more, so what the caller
 * returns is true of the engine.
 */
async function removeForGood(docker: Docker, id: string): Promise<boolean> {
  const remove = () =>
    docker
      .getContainer(id)
      .remove({ force: true })
      .then(
        () => true,
        (err: unknown) => statusOf(err) === 404,
      );
  if (await remove()) return true;
  await untilRemoved(docker, id, 30_000);
  return remove();
}

/** Waits, up to `ms`, until the engine no longer knows the container. */
async function untilRemoved(docker: Docker, id: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const known = await docker
      .getContainer(id)
      .inspect()
      .then(
        () => true,
        (err: unknown) => statusOf(err) !== 404,
      );
    if (!known) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Removes the containers made under `session` once their owners are gone, waiting up to
 * `waitMs` for owners that still live (an editor shutting down). A container whose owner still
 * lives after that is left alone: it may be in use. Returns how many were removed and left.
 */
export async function removeSessionContainers(docker: Docker, session: string, waitMs = 0): Promise<{ removed: number; left: number }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const list = await docker.listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${session}`] } });
    const gone = list.filter((c) => ownerIsGone(c.Labels?.[OWNER_LABEL]));
    if (gone.length === list.length || Date.now() >= deadline) {
      let removed = 0;
      for (const c of gone) {
        try {
          await docker.getContainer(c.Id).remove({ force: true });
          removed++;
        } catch {
          // Already gone, or being removed by someone else.
        }
      }
      return { removed, left: list.length - gone.length };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
