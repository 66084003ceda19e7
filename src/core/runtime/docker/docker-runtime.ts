// Runs each command in a fresh container from the task's image that sees only the mounts the
// caller names, held as container-hold.ts says (no capabilities, read-only image, the limits of
// sweci.limits.*), never as root: as the host user (files come back owned by them), or, when
// this process is root, as the sandbox user, to whom the writable mounts are handed for the
// command and from whom they are taken back after it (as the local sandbox does).
//
// "Fresh" means no process has run in the container before: after a command the container is
// killed (so nothing it started survives) and removed. To keep container start-up off the
// critical path, the next container for the same mounts is started as soon as one is used, and
// waits idle until the next command; it is used only if its mounts still point at the same
// folders (none is started ahead for a mount inside another: nestedInBind). Every container
// carries our labels, so one left by a crash is removed next time. Podman's Docker-compatible
// service is driven by this same code (podman/podman-service.ts); the connection's EngineTraits
// say what differs (its name, rootless Podman's user namespace, fixes for its failures).
import { promises as fs } from 'node:fs';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type Docker from 'dockerode';
import { UserError } from '../../util/errors';
import { assertValidMounts, mapToMount, type Mount } from '../mounts';
import { containerSeedPath, scratchFillPrefix, type ScratchSeed } from '../scratch-folders';
import type { CommandRequest, ContainerEngineKind, RunResult, Runtime } from '../runtime';
import { SpawnError } from '../spawn-error';
import { TailBuffer } from '../tail-buffer';
import { chownTrees } from '../hand-over';
import { harnessIsRoot } from '../sandbox';
import { DEFAULT_SANDBOX_USER, DEFAULT_STEP_LIMITS, limitReason, type LimitKind, type SandboxUser, type StepLimits } from '../step-limits';
import { containerHold, containerUser } from './container-hold';
import { limitReachedIn } from './container-limits';
import { createContainerOn, engineAnswers, engineName, type DockerConnection } from './docker-connection';
import { DockerUnavailableError, ENGINE_HINT, engineMessage, isConnectionError, statusOf, unavailable } from './docker-errors';
import { managedLabels } from './container-owner';
import { GATEWAY_SOCKET_IN_STEP, withGatewayForwarder } from '../gateway-forwarder';

export interface DockerRuntimeOptions {
  connection: DockerConnection;
  /** The image containers are created from (a tag or an id). */
  image: string;
  /** What each container may use (sweci.limits.*), as a sandboxed step; default DEFAULT_STEP_LIMITS. */
  limits?: StepLimits;
  /** CPUs a container may use (sweci.docker.cpus); 0 (default): no limit. */
  cpus?: number;
  /**
   * `uid:gid` the commands run as, who owns the mounts already (never 0). Default: this process's
   * user, so files they write belong to it; when this process is root, `sandboxUser`.
   */
  user?: string;
  /** Who the commands run as when this process is root (sweci.sandboxUser); default nobody. */
  sandboxUser?: SandboxUser;
  /** What the containers are for, as a label: 'pytest', 'agent', … */
  purpose?: string;
  /** Characters of stdout and of stderr kept (the tail); default 4 MiB each. */
  maxOutputChars?: number;
  /** Start the next container while the current one is in use (default true). */
  prestart?: boolean;
  /** After the command exits, how long a leftover process may hold its output open; default 2000 ms. */
  orphanGraceMs?: number;
  /** After a 500 from the engine, how long to watch whether it is going away; default 8000 ms. */
  engineGoneWindowMs?: number;
  /** Network access for requests that do not say (default: none). */
  network?: boolean;
  /**
   * The user opened these containers (sweci.docker.network, pytest's): a confinement's `none`
   * (sweci.pytest.network, which is the local route's) does not close them. Never for agents.
   */
  userNetwork?: boolean;
  /** Docker's network mode when a container has network access (default: 'default', the bridge). */
  networkMode?: string;
}

interface Box {
  container: Docker.Container;
  /** Identity (device:inode) of each mount source when the container was made. */
  sources: string[];
}

/** The container is gone (engine restarted, removed by hand): start a new one and try again. */
class BoxGone extends Error {}

const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;
const POLL_MS = 400;

// What keeps a container alive between creation and its one command. Images differ (no GNU
// sleep in busybox, no shell in distroless); the first that starts is remembered.
const IDLE_COMMANDS: string[][] = [
  ['sleep', 'infinity'],
  ['sh', '-c', 'while :; do sleep 3600; done'],
  ['python', '-c', 'import signal; signal.pause()'],
  ['python3', '-c', 'import signal; signal.pause()'],
];

const hostIds = (): SandboxUser => ({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 });

function parseUser(text: string): SandboxUser {
  const m = /^(\d+):(\d+)$/.exec(text);
  if (!m) throw new Error(`A container's user must be "uid:gid", not ${JSON.stringify(text)}.`);
  return { uid: Number(m[1]), gid: Number(m[2]) };
}

async function identity(p: string): Promise<string> {
  try {
    const st = await fs.stat(p);
    return `${st.dev}:${st.ino}`;
  } catch {
    return 'missing';
  }
}

export class DockerRuntime implements Runtime {
  readonly isolation = 'container' as const;
  readonly kind: ContainerEngineKind;
  readonly description: string;
  /** "Docker" or "Podman", for messages. */
  private readonly name: string;
  private readonly docker: Docker;
  private readonly limits: StepLimits;
  private readonly cpus: number;
  private readonly user: string;
  /** The sandbox user the writable mounts are handed to for each command (this process is root). */
  private readonly handOverTo?: SandboxUser;
  private readonly maxOutputChars: number;
  private readonly prestart: boolean;
  private readonly orphanGraceMs: number;
  private readonly goneWindowMs: number;
  private readonly spares = new Map<string, Promise<Box | undefined>>();
  private readonly live = new Set<Box>();
  private readonly removals = new Set<Promise<void>>();
  /** Containers whose removal failed (the engine was away): removed when it answers again. */
  private readonly leftOver = new Set<string>();
  private idle?: string[];
  private disposed = false;

  constructor(private readonly opts: DockerRuntimeOptions) {
    this.docker = opts.connection.docker;
    this.limits = opts.limits ?? DEFAULT_STEP_LIMITS;
    this.cpus = opts.cpus ?? 0;
    if (!opts.user && harnessIsRoot()) this.handOverTo = opts.sandboxUser ?? DEFAULT_SANDBOX_USER;
    this.user = containerUser(opts.user ? parseUser(opts.user) : (this.handOverTo ?? hostIds()));
    this.maxOutputChars = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
    this.prestart = opts.prestart ?? true;
    this.orphanGraceMs = opts.orphanGraceMs ?? 2000;
    this.goneWindowMs = opts.engineGoneWindowMs ?? 8000;
    this.kind = opts.connection.engine?.kind ?? 'docker';
    this.name = engineName(opts.connection);
    this.description = `${this.kind} · ${opts.image}`;
  }

  get image(): string {
    return this.opts.image;
  }

  pathIn(mounts: readonly Mount[], hostPath: string): string {
    return mapToMount(mounts, hostPath);
  }

  async run(req: CommandRequest): Promise<RunResult> {
    if (this.disposed) throw new Error(`This ${this.name} runtime was disposed.`);
    assertValidMounts(req.mounts ?? []);
    if (req.signal?.aborted) return { exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, cancelled: true, durationMs: 0 };
    // A confinement that says `none` or `gateway` wins: no network (only `lo`), whatever the runtime says.
    const gateway = offNetwork(req, this.opts.userNetwork === true);
    const mounts = [...(req.mounts ?? []), ...(gateway?.mount ? [gateway.mount] : [])];
    const network = gateway ? false : (req.network ?? this.opts.network ?? false);
    const key = JSON.stringify([network, mounts.map((m) => [m.source, m.target, !!m.readOnly, !!m.scratch])]);
    // As root, the folders the command writes are the sandbox user's for the command, ours after it.
    const writable = mounts.filter((m) => !m.readOnly).map((m) => m.source);
    const to = this.handOverTo;
    if (to) await chownTrees(writable, to.uid, to.gid);
    let removing: Promise<void> | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const box = (await this.takeSpare(key, mounts)) ?? (await this.startBox(mounts, network));
        this.live.add(box);
        let done = false;
        try {
          const result = await this.execIn(box, req, gateway?.argv);
          done = true;
          return result;
        } catch (err) {
          if (!(err instanceof BoxGone)) throw err;
          // Twice in a row: the engine is stopping containers (shutting down), or something removes them.
          if (attempt > 0) {
            if (await this.engineGone(err)) throw unavailable(this.opts.connection.address, `running ${req.command}`, err);
            throw new UserError(`${this.name} could not keep a container from ${this.opts.image} running: ${err.message}`, { cause: err });
          }
        } finally {
          // A command that ran to its end left a stopped container; otherwise wait for its removal
          // before the folders are taken back, so nothing it left running writes after that.
          const removal = this.discard(box);
          if (!done) removing = removal;
          if (this.prestart && !this.disposed && !nestedInBind(mounts)) this.prepareSpare(key, mounts, network);
        }
      }
    } finally {
      if (to) {
        await removing;
        const me = hostIds();
        await chownTrees(writable, me.uid, me.gid);
      }
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const spares = [...this.spares.values()];
    this.spares.clear();
    for (const box of [...this.live]) void this.discard(box);
    for (const spare of spares) {
      const box = await spare;
      if (box) void this.discard(box);
    }
    while (this.removals.size > 0) await Promise.all([...this.removals]);
    this.retryLeftOver();
    while (this.removals.size > 0) await Promise.all([...this.removals]);
  }

  // --- containers -------------------------------------------------------------------------

  private prepareSpare(key: string, mounts: readonly Mount[], network: boolean): void {
    if (this.spares.has(key)) return;
    // A spare that cannot start now is no loss: the next run starts its own and says why.
    this.spares.set(
      key,
      this.startBox(mounts, network).catch(() => undefined),
    );
  }

  private async takeSpare(key: string, mounts: readonly Mount[]): Promise<Box | undefined> {
    const pending = this.spares.get(key);
    if (!pending) return undefined;
    this.spares.delete(key);
    const box = await pending;
    if (!box) return undefined;
    // A folder replaced since (deleted and made again) would be a stale view: use a new container.
    const now = await Promise.all(mounts.map((m) => identity(m.source)));
    if (now.some((id, i) => id !== box.sources[i])) {
      void this.discard(box);
      return undefined;
    }
    return box;
  }

  private async startBox(mounts: readonly Mount[], network: boolean): Promise<Box> {
    this.retryLeftOver();
    const sources = await Promise.all(mounts.map((m) => identity(m.source)));
    const missing = mounts.find((_, i) => sources[i] === 'missing');
    if (missing) {
      throw new SpawnError(`Cannot run in ${this.name}: ${missing.source} (to be seen at ${missing.target}) does not exist.`, missing.source, 'ENOENT');
    }
    const candidates = this.idle ? [this.idle] : IDLE_COMMANDS;
    let lastError: unknown;
    for (const idle of candidates) {
      const container = await this.create(mounts, network, idle);
      try {
        await container.start();
        this.idle = idle;
        return { container, sources };
      } catch (err) {
        lastError = err;
        void container.remove({ force: true }).catch(() => undefined);
        if (await this.engineGone(err)) throw unavailable(this.opts.connection.address, 'starting a container', err);
        if (!/executable file not found|no such file or directory/i.test(engineMessage(err))) break;
      }
    }
    const said = engineMessage(lastError);
    const fix = this.opts.connection.engine?.fixFor(said);
    throw new UserError(`${this.name} could not start a container from ${this.opts.image}: ${said}${fix ? ` ${fix}` : ''}`, { cause: lastError });
  }

  private async create(mounts: readonly Mount[], network: boolean, idle: string[]): Promise<Docker.Container> {
    try {
      const hold = containerHold(this.limits, this.cpus, scratchTargets(mounts));
      hold.Ulimits = [...(hold.Ulimits ?? []), ...(this.opts.connection.engine?.ulimits ?? [])];
      return await createContainerOn(this.opts.connection, {
        Image: this.opts.image,
        Cmd: idle,
        Entrypoint: [],
        User: this.user,
        WorkingDir: '/',
        // No passwd entry for the host's uid or the sandbox user's home: a writable one.
        Env: ['HOME=/tmp'],
        Labels: managedLabels(this.opts.purpose ?? 'command'),
        NetworkDisabled: !network,
        HostConfig: {
          ...hold,
          Init: true,
          ...(this.opts.connection.engine?.usernsMode ? { UsernsMode: this.opts.connection.engine.usernsMode } : {}),
          NetworkMode: network ? (this.opts.networkMode ?? 'default') : 'none',
          // A scratch mount's folder is a tmpfs (containerHold); its seed is shown read-only elsewhere.
          Mounts: mounts.map((m, i) =>
            m.scratch
              ? { Type: 'bind' as const, Source: m.source, Target: containerSeedPath(i), ReadOnly: true }
              : { Type: 'bind' as const, Source: m.source, Target: m.target, ReadOnly: !!m.readOnly },
          ),
        },
      });
    } catch (err) {
      if (await this.engineGone(err)) throw unavailable(this.opts.connection.address, 'creating a container', err);
      if (statusOf(err) === 404) {
        throw new UserError(
          `The ${this.name} engine at ${this.opts.connection.address} has no image "${this.opts.image}". Check the task out again to load its image.tar.gz, or name an image the engine has in sweci.docker.image.`,
          { cause: err },
        );
      }
      throw new UserError(`${this.name} could not create a container from ${this.opts.image}: ${engineMessage(err)}`, { cause: err });
    }
  }

  /** Kills everything in the container now; removes it in the background (dispose waits; the promise never fails). */
  private discard(box: Box): Promise<void> {
    this.live.delete(box);
    return this.remove(box.container.id);
  }

  private remove(id: string): Promise<void> {
    const removal = this.docker
      .getContainer(id)
      .remove({ force: true })
      .then(
        () => this.leftOver.delete(id),
        (err: unknown) => {
          // 404: already gone. Anything else (no engine): try again later.
          if (statusOf(err) === 404) this.leftOver.delete(id);
          else this.leftOver.add(id);
        },
      )
      .then(() => {
        this.removals.delete(removal);
      });
    this.removals.add(removal);
    return removal;
  }

  private retryLeftOver(): void {
    for (const id of [...this.leftOver]) {
      this.leftOver.delete(id);
      void this.remove(id);
    }
  }

  // --- one command ------------------------------------------------------------------------

  /** `argv`: what runs instead of the request's command line (the command inside the gateway's forwarder). */
  private async execIn(box: Box, req: CommandRequest, argv?: readonly string[]): Promise<RunResult> {
    const started = Date.now();
    const address = this.opts.connection.address;
    const withStdin = req.stdin !== undefined;
    let exec: Docker.Exec;
    let stream: NodeJS.ReadWriteStream;
    try {
      exec = await box.container.exec({
        Cmd: [...scratchFillPrefix(scratchSeeds(req.mounts ?? [])), ...(argv ?? [req.command, ...req.args])],
        WorkingDir: req.cwd,
        Env: Object.entries(req.env ?? {}).map(([k, v]) => `${k}=${v}`),
        AttachStdin: withStdin,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      });
      stream = (await exec.start({ hijack: true, stdin: withStdin })) as NodeJS.ReadWriteStream;
    } catch (err) {
      if (statusOf(err) === 404 || statusOf(err) === 409 || /is not running|no such container/i.test(engineMessage(err))) throw new BoxGone(engineMessage(err));
      if (await this.engineGone(err)) throw unavailable(address, `starting ${req.command}`, err);
      throw new UserError(`${this.name} could not run ${req.command} in a container: ${engineMessage(err)}`, { cause: err });
    }

    const stdout = new TailBuffer(this.maxOutputChars);
    const stderr = new TailBuffer(this.maxOutputChars);
    const sink = (name: 'stdout' | 'stderr', buffer: TailBuffer): PassThrough => {
      const decoder = new StringDecoder('utf8');
      const pass = new PassThrough();
      const emit = (text: string): void => {
        if (!text) return;
        buffer.append(text);
        try {
          req.onOutput?.(text, name);
        } catch {
          // A faulty listener must not break the run or lose its output.
        }
      };
      pass.on('data', (chunk: Buffer) => emit(decoder.write(chunk)));
      pass.on('end', () => emit(decoder.end()));
      return pass;
    };
    const out = sink('stdout', stdout);
    const err = sink('stderr', stderr);
    this.docker.modem.demuxStream(stream, out, err);
    if (withStdin) {
      stream.on('error', () => undefined);
      stream.end(req.stdin ?? '');
    }

    let timedOut = false;
    let cancelled = false;
    let killed = false;
    let killing: Promise<unknown> | undefined;
    let engineGone: unknown;
    const kill = (): void => {
      killed = true;
      killing ??= box.container.kill().catch(() => undefined);
    };
    const onAbort = (): void => {
      cancelled = true;
      kill();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    // Aborted while the container was being made: that abort fired before this listener.
    if (req.signal?.aborted) onAbort();
    const timeoutTimer = req.timeoutMs && req.timeoutMs > 0 ? setTimeout(() => ((timedOut = true), kill()), req.timeoutMs) : undefined;

    // The command may exit while a process it left behind keeps the output open, and the engine
    // may vanish without closing the stream: ask how the command is doing now and then.
    let exited = false;
    // The limits reached, read as soon as the command is seen to exit: a process it left behind is
    // then killed with the container after the grace, and the counters with it.
    let reachedAtExit: Promise<LimitKind | undefined> | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let finish!: () => void;
    const ended = new Promise<void>((resolve) => (finish = resolve));
    stream.on('end', () => finish());
    stream.on('close', () => finish());
    stream.on('error', () => finish());
    const poller = setInterval(() => {
      exec.inspect().then(
        (info) => {
          if (!info.Running && !exited) {
            exited = true;
            reachedAtExit = limitReachedIn(box.container, this.limits, typeof info.ExitCode === 'number' ? info.ExitCode : null);
            graceTimer = setTimeout(() => {
              kill();
              finish();
            }, this.orphanGraceMs);
          }
        },
        (e: unknown) => {
          if (isConnectionError(e)) {
            engineGone = e;
            finish();
          }
        },
      );
    }, POLL_MS);

    try {
      await ended;
    } finally {
      clearInterval(poller);
      if (timeoutTimer) clearTimeout(timeoutTimer);
      if (graceTimer) clearTimeout(graceTimer);
      req.signal?.removeEventListener('abort', onAbort);
    }
    out.end();
    err.end();
    const durationMs = Date.now() - started;
    if (engineGone) throw unavailable(address, `running ${req.command} (the run is lost)`, engineGone);

    let exitCode: number | null = null;
    if (!timedOut && !cancelled) {
      try {
        const info = await exec.inspect();
        exitCode = typeof info.ExitCode === 'number' ? info.ExitCode : null;
      } catch (e) {
        if (isConnectionError(e)) throw unavailable(address, `running ${req.command} (the run is lost)`, e);
        throw new BoxGone(engineMessage(e));
      }
    }

    // Read while the container still exists: its counters are this command's (the container is fresh).
    const reached = timedOut || cancelled ? undefined : await (reachedAtExit ?? limitReachedIn(box.container, this.limits, exitCode));
    // Killed (or not started) by neither us nor a limit: the engine may be stopping the container
    // (shut down or restarted under the run). Then whatever the command said is not its result.
    const notFound = /executable file not found|no such file or directory/i.test(stdout.text() + stderr.text());
    const suspicious = exitCode === null || exitCode === 126 || exitCode === 137 || exitCode === 143;
    if (!killed && suspicious && reached !== 'memory' && !notFound && (await this.stoppedByEngine(box))) {
      throw new DockerUnavailableError(
        `The ${this.name} engine at ${address} stopped the container while it ran ${req.command} (the engine was stopped or restarted); the run is lost. ${ENGINE_HINT}`,
      );
    }
    // Nothing the command started may outlive it (a daemon writing into later runs): the run
    // returns only once the container has stopped, not when the kill was merely sent. The kill's
    // own answer is not awaited: Podman answers it (as its wait) only after its cleanup process
    // has unmounted the container, hundreds of ms after the last process died (stopped says).
    kill();
    await stopped(box.container);

    if ((exitCode === 126 || exitCode === 127) && /OCI runtime exec failed|executable file not found/i.test(stdout.text() + stderr.text())) {
      const missing = notFound;
      throw new SpawnError(
        `Cannot run "${req.command}" in a container from ${this.opts.image}: ${missing ? 'executable not found in the image' : 'it could not be started'}. ` +
          `Use an image that has it (see the README's Docker section), or run this on the host.`,
        req.command,
        missing ? 'ENOENT' : 'EACCES',
      );
    }
    return {
      exitCode: timedOut || cancelled ? null : exitCode,
      signal: timedOut || cancelled ? 'SIGKILL' : null,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut,
      cancelled,
      durationMs,
      ...(reached ? { limitReached: limitReason(reached, this.limits) } : {}),
    };
  }

  /**
   * Whether a failure means the engine is gone or going (it answers 500s while it shuts down):
   * then the user should restart it, not look for a fault in the task.
   */
  private async engineGone(err: unknown): Promise<boolean> {
    if (isConnectionError(err)) return true;
    if (/connection is closing|transport is closing|context canceled/i.test(engineMessage(err))) return true;
    if (statusOf(err) !== 500 && !(err instanceof BoxGone)) return false;
    // A stopping engine can keep answering for a while after it has failed a request (in CI, a
    // create failed with "error creating overlay mount" as the engine shut down, and a ping
    // 300 ms later still answered): watch it for a few seconds before blaming the task.
    const deadline = Date.now() + this.goneWindowMs;
    do {
      await new Promise((r) => setTimeout(r, 250));
      if (!(await engineAnswers(this.opts.connection, 2000))) return true;
    } while (Date.now() < deadline);
    return false;
  }

  /** Whether the container stops (or the engine goes) within a moment of the command's death. */
  private async stoppedByEngine(box: Box): Promise<boolean> {
    for (let i = 0; i < 10; i++) {
      const state = await box.container.inspect().then(
        (info) => (info.State?.Running ? 'running' : 'stopped'),
        (e: unknown) => (isConnectionError(e) ? 'gone' : 'unknown'),
      );
      if (state !== 'running') return state !== 'unknown';
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }
}

/**
 * A request whose confinement keeps it off the network: none at all, or (gateway) the gateway's
 * socket mounted read-only and the command run inside the forwarder by the image's python3.
 */
function offNetwork(req: CommandRequest, userNetwork: boolean): { mount?: Mount; argv?: string[] } | undefined {
  const net = req.confine?.network;
  if (!net || net.kind === 'open') return undefined;
  if (net.kind === 'none') return userNetwork ? undefined : {};
  const { command, args } = withGatewayForwarder('python3', GATEWAY_SOCKET_IN_STEP, net.port, req.command, req.args);
  return { mount: { source: net.socket, target: GATEWAY_SOCKET_IN_STEP, readOnly: true }, argv: [command, ...args] };
}

/**
 * Whether a mount sits inside another (non-scratch) mount: the engine makes its mount point in that
 * folder on this machine when the container starts. No container is started ahead for such mounts:
 * their caller changes that folder before its next run (runPytest empties its report folder, where
 * the bytecode seed is shown), which would unmount the nested mount from a container started
 * before (the seed unseen) and race one starting meanwhile (the emptying failed with ENOTEMPTY).
 */
function nestedInBind(mounts: readonly Mount[]): boolean {
  const binds = mounts.filter((m) => !m.scratch).map((m) => m.target.replace(/\/+$/, ''));
  return mounts.some((m) => binds.some((outer) => m.target.startsWith(`${outer}/`)));
}

/** How often a killed container is asked whether it still runs. */
const STOP_POLL_MS = 20;

/**
 * Resolves when the container no longer runs (or after 5 s, or when the engine cannot say).
 * Asked, not waited for: an engine's inspect says "not running" once its runtime has reaped the
 * container's init, and with the init of its PID namespace every process in it is gone (the
 * kernel reaps them first). Podman's wait (as its kill of SIGKILL) waits for more, the cleanup
 * process its conmon starts, which took 0.3 to 1.4 s more on a loaded machine (bench/podman.ts).
 */
async function stopped(container: Docker.Container): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const running = await container.inspect().then(
      (info) => info.State?.Running === true,
      () => false,
    );
    if (!running) return;
    await new Promise((r) => setTimeout(r, STOP_POLL_MS));
  }
}

/** The folders of the scratch mounts, where the container sees them. */
function scratchTargets(mounts: readonly Mount[]): string[] {
  return mounts.filter((m) => m.scratch).map((m) => m.target);
}

/** Each scratch mount's seed in the container and the folder it fills (indices as in create). */
function scratchSeeds(mounts: readonly Mount[]): ScratchSeed[] {
  return mounts.flatMap((m, i) => (m.scratch ? [{ seed: containerSeedPath(i), target: m.target }] : []));
}
