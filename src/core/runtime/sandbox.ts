// Confinement of local processes with bubblewrap (Debian's `bubblewrap`). An allow-list: the
// command sees the machine's system folders read-only, the tools it runs (read-only), what it was
// given (its mounts; a private home as a size-limited copy), a size-limited /tmp, /var/tmp and /run
// of its own, and nothing else: not the user's home, not the dataset, the experiment or other
// tasks, not the engines' sockets. It runs in its own PID, IPC and UTS namespaces with no
// capabilities and no way to gain any (no_new_privs), with /proc/sys read-only, rlimits on file
// size (and on memory and processes where no control group holds them), in a session of its own,
// and dies with us.
//
// Never root on the host. Started by a user, bubblewrap maps the command to that user in a user
// namespace. Started by root, a user namespace would map the command back to uid 0 on the host
// (root's files, /proc/sys, a core_pattern to run as root), so there is none: bubblewrap keeps only
// the capabilities to change user, and setpriv makes the command the sandbox user (nobody) before
// it runs, with an empty bounding set.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Mount } from './mounts';
import { SYSTEM_DIRS, SYSTEM_LINKS } from './host-tools';
import { findTrustedProgram } from '../util/trusted-program';
import { isSameOrInside } from '../util/paths';
import type { SandboxUser, StepLimits } from './step-limits';
import { SANDBOX_SEED_DIR, sandboxSeedPath, scratchFillPrefix, type ScratchSeed } from './scratch-folders';
import { GATEWAY_SOCKET_IN_STEP } from './gateway-forwarder';

/**
 * What a confined command may reach on the network. `open`: the host's network namespace, as a
 * plain process (the default). `none`: a network namespace of its own with only `lo`. `gateway`:
 * the same, plus the model gateway: its Unix socket (`socket`, a host path the sandbox user may
 * connect to) is bound into the step at GATEWAY_SOCKET_IN_STEP, and a forwarder inside
 * (gateway-forwarder.ts) relays the step's own 127.0.0.1:`port` to it while the command runs.
 */
export type NetworkConfinement = { kind: 'open' } | { kind: 'none' } | { kind: 'gateway'; socket: string; port: number };

/** What a confined command may see and write besides the system folders. */
export interface Confinement {
  /**
   * Host paths shown empty (folders) or as an empty file even where a readable path would show
   * them: the task's records, the oracle, the dataset. Applied after `readable` and `writable`.
   */
  hide: readonly string[];
  /** Host paths shown read-only (a custom agent's own files). */
  readable?: readonly string[];
  /** Host folders writable besides the request's mounts. */
  writable?: readonly string[];
  /**
   * Where no control group holds memory, hold it by an address-space limit on each process.
   * For pytest (Python asks for what it uses); not for agents, whose JavaScript and WebAssembly
   * runtimes reserve far more address space than they use and would not start under one.
   */
  addressSpaceLimit?: boolean;
  /** What it may reach on the network; default `{ kind: 'open' }`. */
  network?: NetworkConfinement;
}

/** Whether the command has a network namespace of its own (only `lo`). */
export const ownNetwork = (confine: Pick<Confinement, 'network'>): boolean => (confine.network?.kind ?? 'open') !== 'open';

export interface SandboxCommand {
  command: string;
  args: string[];
}

/** Files of /etc that only root may read: root inside the sandbox is root on them too. */
const HIDDEN_SYSTEM_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-'];

/** Namespaces, capabilities and session: the same for every command and for the probe. */
const COMMON_FLAGS = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--new-session'];

/**
 * Started by a user: a user namespace of its own, every capability dropped. Started by root: no
 * user namespace (it would map back to root), and only what setpriv needs to become the sandbox
 * user and clear its bounding set; setpriv drops them with the change of user. Started by root
 * where mount namespaces cannot be had without one (a container or pod without CAP_SYS_ADMIN):
 * a user namespace in which the command is the sandbox user, mapped to the container's root
 * (which a pod with `hostUsers: false` maps to an unprivileged user of the node).
 */
function isolationFlags(hold: Pick<StepHold, 'user' | 'mapped'>): string[] {
  if (hold.user) return [...COMMON_FLAGS, '--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP'];
  const ids = hold.mapped ? ['--uid', String(hold.mapped.uid), '--gid', String(hold.mapped.gid)] : [];
  return [...COMMON_FLAGS, '--unshare-user', ...ids, '--cap-drop', 'ALL'];
}

/** The harness runs as root: confined commands must then be made someone else. */
export const harnessIsRoot = (): boolean => process.platform !== 'win32' && process.getuid?.() === 0;

/** The util-linux programs every confined command starts through (absolute, from the system folders). */
export interface StepTools {
  prlimit: string;
  setpriv: string;
}

/** How one command is held: who it runs as (root harness only), its limits, and which limits a control group already holds. */
export interface StepHold {
  /** Root harness: setpriv makes the command this user (no user namespace). */
  user?: SandboxUser;
  /** Root harness that cannot build namespaces without one: the command's uid inside a user namespace. */
  mapped?: SandboxUser;
  limits?: StepLimits;
  /** Limits a control group enforces for the whole step: not repeated as rlimits. */
  heldByGroup?: ReadonlySet<'memory' | 'processes'>;
  /** See Confinement.addressSpaceLimit. */
  addressSpaceLimit?: boolean;
  /** The step's control group folders, shown read-only where it looks for them (/sys/fs/cgroup). */
  groupView?: readonly { source: string; target: string }[];
}

const MiB = 2 ** 20;

/** What runs inside the sandbox before the command: prlimit (limits), then setpriv (the user). */
export function holdPrefix(tools: StepTools, hold: StepHold): string[] {
  const out: string[] = [];
  const l = hold.limits;
  const held = hold.heldByGroup ?? new Set();
  const rlimits = ['--core=0'];
  if (l && l.fileSizeMb > 0) rlimits.push(`--fsize=${l.fileSizeMb * MiB}`);
  if (l && l.memoryMb > 0 && !held.has('memory') && hold.addressSpaceLimit) rlimits.push(`--as=${l.memoryMb * MiB}`);
  // RLIMIT_NPROC counts every process of the user on the host: only for the sandbox's own user.
  if (l && l.processes > 0 && !held.has('processes') && hold.user) rlimits.push(`--nproc=${l.processes}`);
  out.push(tools.prlimit, ...rlimits, '--');
  if (hold.user) {
    out.push(
      tools.setpriv,
      `--reuid=${hold.user.uid}`,
      `--regid=${hold.user.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    );
  }
  return out;
}

async function kindOf(p: string): Promise<'dir' | 'file' | 'link' | 'missing'> {
  const st = await fs.lstat(p).catch(() => undefined);
  return !st ? 'missing' : st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'file';
}

/** The system folders, read-only, with merged-/usr links kept as links. */
async function systemArgs(tmpMb = 0): Promise<string[]> {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) if ((await kindOf(dir)) === 'dir') args.push('--ro-bind', dir, dir);
  for (const name of SYSTEM_LINKS) {
    const p = `/${name}`;
    const kind = await kindOf(p);
    if (kind === 'link') args.push('--symlink', await fs.readlink(p), p);
    else if (kind === 'dir') args.push('--ro-bind', p, p);
  }
  // Name resolution where /etc/resolv.conf points into /run (systemd-resolved).
  const resolv = await fs.realpath('/etc/resolv.conf').catch(() => undefined);
  if (resolv && !resolv.startsWith('/etc/')) args.push('--ro-bind', resolv, resolv);
  // A fresh /proc of the PID namespace, its /proc/sys read-only (the host's kernel settings).
  args.push('--dev', '/dev', '--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys');
  // Temp folders anyone (the sandbox user included) may write, each of a bounded size.
  for (const dir of ['/tmp', '/var/tmp', '/run']) args.push('--perms', '1777', ...tmpfsSize(tmpMb), '--tmpfs', dir);
  return args;
}

/** bubblewrap's size for the next tmpfs: sweci.limits.tmpMb (0: none). */
const tmpfsSize = (tmpMb = 0): string[] => (tmpMb > 0 ? ['--size', String(tmpMb * MiB)] : []);

/** Read-only folders every sandbox has whole before anything is bound: nothing can be made inside them. */
const SYSTEM_TREES = [...SYSTEM_DIRS, ...SYSTEM_LINKS.map((l) => `/${l}`), '/dev', '/proc'];
/** Folders of its own it has (the temp folders), whose modes must stay as they are. */
const OWN_FOLDERS = ['/', '/tmp', '/var/tmp', '/run'];

/**
 * The folders leading to each bound path, made traversable (0755): bubblewrap would otherwise
 * give them the host folders' modes, and a bound folder below a private one (/root, a 0700 temp
 * folder) would be out of the sandbox user's reach. They hold nothing but the bound paths.
 */
function skeletonArgs(destinations: readonly string[]): string[] {
  const parents = new Set<string>();
  for (const d of destinations) {
    for (let p = path.dirname(path.resolve(d)); !OWN_FOLDERS.includes(p) && !SYSTEM_TREES.some((s) => isSameOrInside(s, p)); p = path.dirname(p))
      parents.add(p);
  }
  return byDepth([...parents]).flatMap((p) => ['--perms', '0755', '--dir', p]);
}

/**
 * The readable paths inside no other one, shortest first. A folder shown read-only shows all it
 * holds, and a bind inside it would need its mount point made there: for a link (a virtual
 * environment's bin/python3 in its own folder, pointing at the interpreter it was made from) that
 * is the link's target, not shown yet, and bubblewrap refuses the whole command.
 */
function outermost(paths: readonly string[]): string[] {
  const sorted = byDepth(paths);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => q !== p && isSameOrInside(q, p)));
}

/** Shortest first: a path bound later covers what an enclosing one showed. */
function byDepth(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => path.resolve(p)))].sort((a, b) => a.length - b.length);
}

/**
 * The bwrap argv for a command. Order matters (later mounts cover earlier ones): the system
 * folders; /dev, /proc and the temp folders of its own; the readable paths; the writable ones; the
 * hidden paths; then the request's mounts (writable unless read-only) at their host paths (or where `at` says), so
 * the paths a caller hands the command stay valid.
 */
export async function bubblewrapCommand(
  bwrap: string,
  req: { command: string; args: readonly string[]; cwd: string; mounts?: readonly Mount[] },
  confine: Confinement,
  hold: StepHold & { tools: StepTools },
): Promise<SandboxCommand> {
  const args = [...isolationFlags(hold), ...(await systemArgs(hold.limits?.tmpMb))];
  args.push(...networkArgs(confine.network));
  args.push(...skeletonArgs([...(confine.readable ?? []), ...(confine.writable ?? []), ...(hold.groupView ?? []).map((v) => v.target)]));
  // Its own limits and usage, to read (memory.max or memory.limit_in_bytes, pids.max), never to change.
  for (const v of hold.groupView ?? []) args.push('--ro-bind', v.source, v.target);
  for (const p of outermost(confine.readable ?? [])) {
    const kind = await kindOf(p);
    if (kind !== 'missing') args.push('--ro-bind', p, p);
  }
  for (const dir of byDepth(confine.writable ?? [])) {
    if ((await kindOf(dir)) === 'dir') args.push('--bind', dir, dir);
  }
  // Only what a shown path would show: hiding anything else would make an empty stand-in appear.
  const shown = [...SYSTEM_DIRS, ...(confine.readable ?? []), ...(confine.writable ?? [])];
  for (const p of [...HIDDEN_SYSTEM_FILES, ...confine.hide]) {
    if (!shown.some((s) => isSameOrInside(s, p) || isSameOrInside(p, s))) continue;
    const st = await fs.stat(p).catch(() => undefined);
    if (st?.isDirectory()) args.push('--tmpfs', p);
    // --dev-bind: a plain bind is mounted nodev, where /dev/null could not even be opened.
    else if (st) args.push('--dev-bind', '/dev/null', p);
  }
  // Again for the mounts: a hidden folder above them (the task's) is an empty tmpfs by now.
  args.push(...skeletonArgs((req.mounts ?? []).map((m) => m.at ?? m.source)));
  const seeds: ScratchSeed[] = [];
  for (const [i, m] of (req.mounts ?? []).entries()) {
    if (!(await fs.stat(m.source).catch(() => undefined))) continue;
    if (m.scratch) {
      // Its seed read-only in the step's /run, and a fresh tmpfs where the folder is, filled below.
      const seed = sandboxSeedPath(i);
      // bubblewrap would make the folder above it root's and 0700: out of the sandbox user's reach.
      if (seeds.length === 0) args.push('--perms', '0755', '--dir', SANDBOX_SEED_DIR);
      args.push('--ro-bind', m.source, seed, '--perms', '1777', ...tmpfsSize(hold.limits?.tmpMb), '--tmpfs', m.source);
      seeds.push({ seed, target: m.source });
    } else args.push(m.readOnly ? '--ro-bind' : '--bind', m.source, m.at ?? m.source);
  }
  // The skeleton bwrap builds (the folders leading to each path above) is read-only too.
  args.push('--remount-ro', '/', '--chdir', req.cwd, '--', ...holdPrefix(hold.tools, hold), ...scratchFillPrefix(seeds), req.command, ...req.args);
  return { command: bwrap, args };
}

/**
 * No network of its own unless open: a namespace with only `lo` (bubblewrap brings it up), so
 * neither the host's loopback services, its abstract Unix sockets, nor any other address is
 * there, and a port it binds is its own. The gateway's socket (a file) is bound read-only, which
 * still lets the sandbox user connect to it; the forwarder the runtime puts before the command
 * relays the step's loopback port to it.
 */
function networkArgs(network: NetworkConfinement | undefined): string[] {
  if (!network || network.kind === 'open') return [];
  if (network.kind === 'none') return ['--unshare-net'];
  // Its folder made traversable (bubblewrap would make it 0700, out of the sandbox user's reach).
  const folder = path.posix.dirname(GATEWAY_SOCKET_IN_STEP);
  return ['--unshare-net', '--perms', '0755', '--dir', folder, '--ro-bind', network.socket, GATEWAY_SOCKET_IN_STEP];
}

/**
 * Whether bubblewrap can confine here: its path and helpers, and as root whether the command can
 * be made the sandbox user ('drop') or only mapped to it in a user namespace ('mapped'); or why
 * not (bwrap's own words when it ran).
 */
export type BubblewrapProbe =
  ({ bwrap: string; rootMode?: 'drop' | 'mapped' } & StepTools) | { problem: 'not-linux' | 'not-installed' | 'refused'; detail?: string };

let probed: Promise<BubblewrapProbe> | undefined;

/**
 * Tries the sandbox once per process, with the very flags every confined command gets: bwrap
 * installed where no task can have put it, and user namespaces allowed (a container's default
 * seccomp and AppArmor profiles, or a masked /proc, refuse them).
 */
export function probeBubblewrap(): Promise<BubblewrapProbe> {
  probed ??= (async (): Promise<BubblewrapProbe> => {
    if (process.platform !== 'linux') return { problem: 'not-linux' };
    const bwrap = findTrustedProgram('bwrap');
    const prlimit = findTrustedProgram('prlimit');
    const setpriv = findTrustedProgram('setpriv');
    if (!bwrap) return { problem: 'not-installed' };
    if (!prlimit || !setpriv) return { problem: 'not-installed', detail: 'prlimit and setpriv (util-linux) are missing' };
    const tools = { prlimit, setpriv };
    // As a confined command runs: as root, it also proves the change to the sandbox user works.
    const attempt = async (hold: StepHold): Promise<string | undefined> => {
      const args = [...isolationFlags(hold), ...(await systemArgs(1)), '--', ...holdPrefix(tools, hold), '/bin/true'];
      return new Promise<string | undefined>((resolve) => {
        execFile(bwrap, args, { timeout: 10_000 }, (err, _out, stderr) => resolve(err ? String(stderr).trim() || err.message : undefined));
      });
    };
    const nobody = { uid: 65534, gid: 65534 };
    if (!harnessIsRoot()) {
      const failure = await attempt({});
      return failure === undefined ? { bwrap, ...tools } : { problem: 'refused', detail: failure.split('\n')[0] };
    }
    if ((await attempt({ user: nobody })) === undefined) return { bwrap, ...tools, rootMode: 'drop' };
    const failure = await attempt({ mapped: nobody });
    return failure === undefined ? { bwrap, ...tools, rootMode: 'mapped' } : { problem: 'refused', detail: failure.split('\n')[0] };
  })();
  return probed;
}

/** The bwrap executable when it can confine here, else undefined. */
export async function findBubblewrap(): Promise<string | undefined> {
  const probe = await probeBubblewrap();
  return 'bwrap' in probe ? probe.bwrap : undefined;
}
