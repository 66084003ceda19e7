// Podman has no daemon; its Docker-compatible API is a process of ours: `podman system service`
// on a socket in a private folder, started when a task first needs it and stopped when the last
// task of this process lets it go. Through it the Docker route's code (containers, exec, limits,
// labels, the image budget) drives Podman unchanged; docker-connection.ts's EngineTraits carry
// what differs. It dies with us (setpriv's parent-death signal), so a crash leaves no service;
// the containers a crash leaves are removed by their labels next time, as with Docker.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Docker from 'dockerode';
import { UserError, throwIfAborted } from '../../util/errors';
import { findTrustedProgram } from '../../util/trusted-program';
import type { DockerConnection, EngineTraits } from '../docker/docker-connection';
import { TailBuffer } from '../tail-buffer';
import { serviceUlimits } from './service-ulimits';
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
export function podmanTraits(rootless: boolean, ulimits: EngineTraits['ulimits'] = []): EngineTraits {
  return {
    kind: 'podman',
    name: 'Podman',
    ulimits,
    // Rootless: the user's own uid is the same number inside, so files written to mounts are theirs.
    ...(rootless ? { usernsMode: 'keep-id' } : {}),
    loadsPlainTar: true,
    // Podman 4.3 spools a streamed archive twice in its temporary folder, then stores it.
    loadPeakFactor: 3,
    fixFor: (message) => (/error setting rlimit/i.test(message) ? RLIMIT_FIX : undefined),
    hint: 'Check that Podman works here (podman info), or choose --runtime docker or local.',
  };
}

/** Podman's global options for the configured store (the store SWE-CI names uses the overlay driver). */
export function podmanGlobalArgs(settings: PodmanSettings): string[] {
  return [...(settings.root ? ['--root', settings.root, '--storage-driver', 'overlay'] : []), ...(settings.runroot ? ['--runroot', settings.runroot] : [])];
}

/** Where Podman spools an archive while loading it: beside the store when one is named (node-local disk). */
export function podmanTmpDir(settings: PodmanSettings): string | undefined {
  return settings.root ? path.join(settings.root, 'sweci-tmp') : undefined;
}

interface Running {
  child: ChildProcess;
  dir: string;
  connection: DockerConnection;
  holders: number;
  exited: Promise<void>;
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
  const args = [...podmanGlobalArgs(settings), 'system', 'service', '--time=0', `unix://${socketPath}`];
  const setpriv = findTrustedProgram('setpriv');
  const [command, argv] = setpriv ? [setpriv, ['--pdeathsig', 'TERM', '--', host.podman, ...args]] : [host.podman, args];
  // Its own folder as working directory: conmon writes an `oom` file into the working directory of
  // whoever started it when a container is killed for memory (seen in the task's folder otherwise).
  const child = spawn(command, argv, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...(tmp ? { TMPDIR: tmp } : {}) } });
  const stderr = new TailBuffer(8192);
  child.stderr?.setEncoding('utf8').on('data', (c: string) => stderr.append(c));
  let exitedEarly: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.on('error', (err) => {
      exitedEarly = err.message;
      resolve();
    });
    child.on('exit', (code, sig) => {
      exitedEarly ??= `it exited (${sig ?? `code ${code}`})`;
      resolve();
    });
  });
  const onExit = (): void => {
    child.kill('SIGTERM');
  };
  process.once('exit', onExit);
  void exited.then(() => process.removeListener('exit', onExit));
  const connection: DockerConnection = {
    docker: new Docker({ socketPath }),
    address: `podman ${[...podmanGlobalArgs(settings), 'system service'].join(' ')} (${socketPath})`,
    engine: podmanTraits(host.rootless),
  };
  const running: Running = { child, dir, connection, holders: 0, exited };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exitedEarly !== undefined) break;
    const answered = await connection.docker.ping().then(
      () => true,
      () => false,
    );
    if (answered) {
      running.connection.engine = podmanTraits(host.rootless, serviceUlimits(child.pid));
      return running;
    }
    if (Date.now() > deadline) break;
    await Promise.race([exited, new Promise((r) => setTimeout(r, 100))]);
  }
  await stopService(running);
  const said = stderr.text().trim().split('\n').slice(-5).join(' ').trim();
  throw new UserError(
    `Podman's API service did not start (${exitedEarly ?? `no answer within ${READY_TIMEOUT_MS / 1000} s`})${said ? `: ${said}` : ''}. ` +
      `Check that \`podman ${podmanGlobalArgs(settings).join(' ')} info\` works as this user, or choose --runtime docker or local.`,
  );
}

async function stopService(running: Running): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null) {
    running.child.kill('SIGTERM');
    const timer = setTimeout(() => running.child.kill('SIGKILL'), 10_000);
    await running.exited;
    clearTimeout(timer);
  }
  await fs.rm(running.dir, { recursive: true, force: true }).catch(() => undefined);
}
