// Podman has no daemon; its Docker-compatible API is a process of ours: `podman system service`
// on a socket in a private folder, started when a task first needs it and stopped when the last
// task of this process lets it go. Through it the Docker route's code (containers, exec, limits,
// labels, the image budget) drives Podman unchanged; docker-connection.ts's EngineTraits carry
// what differs, among them how an image archive goes in: a `podman load` of its own
// (podman-load.ts), not the service. It dies with us (setpriv's parent-death signal), so a crash leaves no service;
// the containers a crash leaves are removed by their labels next time, as with Docker.
// It runs in a process group of its own, and every stop signals the whole group: a rootless
// podman re-executes itself inside a user namespace, and that child is not killed with an outer
// podman that is (it was once left running with parent 1).
// Unlike Docker's daemon, the service is one of our processes, so a signal meant for the whole
// job (Slurm's scancel signals every process of the job) stops it while we still need it to
// remove our containers: a service that exits while held is started again on the same socket,
// and the last release removes every container this process made in the store before it stops.
import type { ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Docker from 'dockerode';
import { UserError, throwIfAborted } from '../../util/errors';
import type { DockerConnection, EngineTraits } from '../docker/docker-connection';
import { ownerLabel, OWNER_LABEL } from '../docker/container-owner';
import { statusOf } from '../docker/docker-errors';
import { TailBuffer } from '../tail-buffer';
import { signalProcessGroup, untilProcessGroupGone } from '../kill-tree';
import { serviceUlimits } from './service-ulimits';
import { podmanGlobalArgs, podmanTmpDir, spawnPodman } from './podman-store';
import { podmanLoader } from './podman-load';
import type { PodmanSettings } from '../runtime-settings';
import type { PodmanHost } from './podman-preflight';

interface PodmanService {
  connection: DockerConnection;
  /** Lets the service go; the last holder in this process stops it. Safe to call twice. */
  release(): Promise<void>;
}

/** How long the service may take to answer its first ping (it opens the store first). */
const READY_TIMEOUT_MS = 60_000;

const RLIMIT_FIX =
  "Podman's default ulimits are higher than this machine lets root raise (a VM or container whose init limits them). " +
  'Give Podman an empty default: write "[containers]" and "default_ulimits = []" to /etc/containers/containers.conf.d/50-sweci.conf (scripts/setup.sh does), then try again.';

/** What differs when Podman answers: see EngineTraits. `ulimits`: the service's own (serviceUlimits). */
export function podmanTraits(settings: PodmanSettings, host: PodmanHost, ulimits: EngineTraits['ulimits'] = []): EngineTraits {
  return {
    kind: 'podman',
    name: 'Podman',
    ulimits,
    loadLock: loadLockFile(settings),
    ...(settings.root ? { storageRoot: settings.root } : {}),
    // Rootless: the user's own uid is the same number inside, so files written to mounts are theirs.
    ...(host.rootless ? { usernsMode: 'keep-id', oneCreateAtATime: true } : {}),
    // Archives go to a `podman load` of their own on the same store, not to the service (podman-load.ts says why).
    loader: podmanLoader(settings, host),
    // Podman 4.3 spools a streamed archive twice in its temporary folder, then stores it.
    loadPeakFactor: 3,
    fixFor: (message) => (/error setting rlimit/i.test(message) ? RLIMIT_FIX : undefined),
    hint: 'Check that Podman works here (podman info), or choose --runtime docker or local.',
  };
}

/**
 * The lock every SWE-CI process loading into this store takes (each runs a service of its own on
 * it): beside the named store, else one per user for Podman's default store of that user.
 */
function loadLockFile(settings: PodmanSettings): string {
  const tmp = podmanTmpDir(settings);
  return tmp ? path.join(tmp, 'load.lock') : path.join(os.tmpdir(), `sweci-podman-load-${process.getuid?.() ?? 0}.lock`);
}

interface Running {
  child: ChildProcess;
  dir: string;
  connection: DockerConnection;
  holders: number;
  exited: Promise<void>;
  /** Set once we stop it: an exit after that is ours, not one to recover from. */
  stopping: boolean;
  /** While the service is started again after an exit it did not ask for. */
  restarting?: Promise<void>;
  /** Stops every process of the current service (see Spawned.end). */
  end: () => Promise<boolean>;
  /** Starts the service again on the same socket; false when it does not answer. */
  respawn: () => Promise<boolean>;
}

const services = new Map<string, Promise<Running>>();

export async function acquirePodman(settings: PodmanSettings, host: PodmanHost, signal?: AbortSignal): Promise<PodmanService> {
  const key = JSON.stringify([settings.root, settings.runroot]);
  let pending = services.get(key);
  if (!pending) {
    pending = startService(settings, host);
    services.set(key, pending);
    pending.catch(() => services.delete(key));
  }
  const running = await pending;
  running.holders++;
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    if (--running.holders > 0) return;
    services.delete(key);
    running.stopping = true;
    await removeOwnContainers(running);
    await stopService(running);
  };
  try {
    throwIfAborted(signal);
  } catch (err) {
    await release();
    throw err;
  }
  return { connection: running.connection, release };
}

async function startService(settings: PodmanSettings, host: PodmanHost): Promise<Running> {
  const tmp = podmanTmpDir(settings);
  if (tmp) await fs.mkdir(tmp, { recursive: true, mode: 0o700 });
  // Short: a unix socket's path must stay under 108 characters.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-podman-'));
  const socketPath = path.join(dir, 'api.sock');
  const connection: DockerConnection = {
    docker: new Docker({ socketPath }),
    address: `podman ${[...podmanGlobalArgs(settings, host), 'system service'].join(' ')} (${socketPath})`,
    engine: podmanTraits(settings, host),
  };
  const spawned = spawnService(settings, host, dir, socketPath);
  const running: Running = { ...spawned, dir, connection, holders: 0, stopping: false, respawn: () => Promise.resolve(false) };
  running.respawn = async () => {
    // What is left of the one that exited (its user-namespace child, when only the outer podman was killed).
    await running.end();
    await fs.rm(socketPath, { force: true }).catch(() => undefined);
    const again = spawnService(settings, host, dir, socketPath);
    Object.assign(running, { child: again.child, exited: again.exited, end: again.end });
    return (await untilAnswering(running, again.exitReason)) === undefined;
  };
  const failure = await untilAnswering(running, spawned.exitReason);
  if (failure === undefined) {
    running.connection.engine = podmanTraits(settings, host, serviceUlimits(running.child.pid));
    watch(running);
    return running;
  }
  await stopService(running);
  const said = spawned.stderr.text().trim().split('\n').slice(-5).join(' ').trim();
  throw new UserError(
    `Podman's API service did not start (${failure})${said ? `: ${said}` : ''}. ` +
      `Check that \`podman ${podmanGlobalArgs(settings, host).join(' ')} info\` works as this user, or choose --runtime docker or local.`,
  );
}

interface Spawned {
  child: ChildProcess;
  exited: Promise<void>;
  stderr: TailBuffer;
  /** Why it exited, once it has. */
  exitReason: () => string | undefined;
  /**
   * Stops every process of the service: SIGTERM to its group, SIGKILL to what is left after
   * STOP_GRACE_MS. True once none lives (false only for a process that does not die even then).
   */
  end: () => Promise<boolean>;
}

/** How long the service may take to stop on SIGTERM before the rest of its group is killed. */
const STOP_GRACE_MS = 10_000;

function spawnService(settings: PodmanSettings, host: PodmanHost, dir: string, socketPath: string): Spawned {
  const tmp = podmanTmpDir(settings);
  const args = [...podmanGlobalArgs(settings, host), 'system', 'service', '--time=0', `unix://${socketPath}`];
  // Its own folder as working directory: conmon writes an `oom` file into the working directory of
  // whoever started it when a container is killed for memory (seen in the task's folder otherwise).
  // A group of its own: a terminal's ^C reaches only us, and we stop it once our containers are removed.
  const child = spawnPodman(host, args, {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...(tmp ? { TMPDIR: tmp } : {}) },
  });
  const group = child.pid;
  const stderr = new TailBuffer(8192);
  child.stderr?.setEncoding('utf8').on('data', (c: string) => stderr.append(c));
  let reason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('error', (err) => {
      reason = err.message;
      resolve();
    });
    child.on('exit', (code, sig) => {
      reason ??= `it exited (${sig ?? `code ${code}`})`;
      resolve();
    });
  });
  // We exit without having stopped it: nothing can wait any more, but the whole group is told to go.
  // A crash runs no handler: then setpriv's parent-death signal reaches the outer podman, which passes it on.
  const onExit = (): void => {
    if (group !== undefined) signalProcessGroup(group, 'SIGTERM');
  };
  process.once('exit', onExit);
  let ending: Promise<boolean> | undefined;
  const end = (): Promise<boolean> =>
    (ending ??= (async () => {
      if (group === undefined) return true;
      signalProcessGroup(group, 'SIGTERM');
      let gone = await untilProcessGroupGone(group, STOP_GRACE_MS);
      if (!gone) {
        signalProcessGroup(group, 'SIGKILL');
        gone = await untilProcessGroupGone(group, STOP_GRACE_MS);
      }
      if (gone) process.removeListener('exit', onExit);
      return gone;
    })());
  return { child, exited, stderr, exitReason: () => reason, end };
}

/** Waits for the service's first answer; undefined once it answers, else why not. */
async function untilAnswering(running: Pick<Running, 'connection' | 'exited'>, exitReason: () => string | undefined): Promise<string | undefined> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const reason = exitReason();
    if (reason !== undefined) return reason;
    const answered = await running.connection.docker.ping().then(
      () => true,
      () => false,
    );
    if (answered) return undefined;
    if (Date.now() > deadline) return `no answer within ${READY_TIMEOUT_MS / 1000} s`;
    await Promise.race([running.exited, new Promise((r) => setTimeout(r, 100))]);
  }
}

/**
 * Starts the service again on the same socket when it exits while held (a signal sent to every
 * process of a job): the containers it ran keep running, and only the service can remove them.
 * A calls made meanwhile fails as with an engine that went away (the runtime retries removals).
 */
function watch(running: Running): void {
  void running.exited.then(() => {
    if (running.stopping || running.holders <= 0) return;
    running.restarting = (async () => {
      if (await running.respawn()) watch(running);
    })().finally(() => {
      running.restarting = undefined;
    });
  });
}

const isRunning = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/**
 * Removes what this process made in the store and still holds (a step stopped by a signal, a
 * spare, an image hold whose removal failed while the service was away): at the last release,
 * no task of this process uses the store any more.
 */
async function removeOwnContainers(running: Running): Promise<void> {
  await running.restarting;
  // The signal that stops us may be stopping the service at this moment too: then once more on a new one.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!isRunning(running.child) && !(await running.respawn())) return;
    if (await sweep(running.connection.docker)) return;
    await Promise.race([running.exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
}

/** Removes the containers labelled as this process's; false when the service failed under it. */
async function sweep(docker: Docker): Promise<boolean> {
  try {
    const mine = await docker.listContainers({ all: true, filters: { label: [`${OWNER_LABEL}=${ownerLabel()}`] } });
    for (const c of mine) {
      // Killed first: Podman's forced removal waits out the container's stop timeout (10 s) for a
      // PID 1 that ignores SIGTERM, and a job being cancelled has only Slurm's KillWait left.
      if (c.State === 'running')
        await docker
          .getContainer(c.Id)
          .kill({ signal: 'SIGKILL' })
          .catch(() => undefined);
      await docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch((err: unknown) => {
          if (statusOf(err) !== 404) throw err;
        });
    }
    return true;
  } catch {
    return false;
  }
}

async function stopService(running: Running): Promise<void> {
  // The group, not the process we spawned: its exit does not mean the rest of it has gone.
  if (await running.end()) await running.exited;
  await fs.rm(running.dir, { recursive: true, force: true }).catch(() => undefined);
}
