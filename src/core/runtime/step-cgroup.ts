// A control group per confined step, where this machine lets us make one (as root, or where the
// cgroup tree is delegated to us): the memory and process limits then hold for the whole step,
// all its processes together, by resident memory (an address-space limit would also stop the
// JavaScript and WebAssembly runtimes the agent CLIs are built on, which reserve far more than
// they use), and the kernel's counters say afterwards which limit the step ran into. cgroup v2
// where its memory and pids controllers can be had below ours, otherwise the v1 hierarchies.
import { mkdirSync, readFileSync, rmdirSync, writeFileSync, existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import * as path from 'node:path';
import type { LimitKind, StepLimits } from './step-limits';

export interface StepCgroup {
  /** The cgroup.procs files the step's first process writes its pid to before it runs anything. */
  readonly procsFiles: readonly string[];
  /** Which limits the group enforces (the rest fall back to rlimits). */
  readonly enforces: ReadonlySet<'memory' | 'processes'>;
  /** The group's folders and where the step sees them, read-only (its limits and usage). */
  readonly view: readonly { source: string; target: string }[];
  /** After the step: the limit it ran into, if any. */
  reached(): LimitKind | undefined;
  /** Removes the group once its last process is reaped. Safe to call twice. */
  dispose(): Promise<void>;
}

interface Mount {
  point: string;
  version: 1 | 2;
  controllers: Set<string>;
}

function cgroupMounts(): Mount[] {
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    // "<id> <parent> <dev> <root> <point> <opts> [optional…] - <fstype> <source> <super opts>"
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const point = left.split(' ')[4];
    const [fstype, , superOpts = ''] = right.split(' ');
    if (!point || (fstype !== 'cgroup' && fstype !== 'cgroup2')) continue;
    if (fstype === 'cgroup2') mounts.push({ point, version: 2, controllers: new Set() });
    else mounts.push({ point, version: 1, controllers: new Set(superOpts.split(',')) });
  }
  return mounts;
}

/** This process's cgroup path per hierarchy: v1 by controller, v2 under ''. */
function ownPaths(): Map<string, string> {
  const out = new Map<string, string>();
  let text = '';
  try {
    text = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === '') out.set('', m[2]);
    else for (const c of m[1].split(',')) out.set(c, m[2]);
  }
  return out;
}

let counter = 0;
const groupName = (): string => `sweci-step-${process.pid}-${++counter}`;

function tryWrite(file: string, value: string): boolean {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A kernel counter of a control group: the value of `key` ("key N" lines, as in memory.events,
 * memory.oom_control, pids.events) in the first of `files` that can be read; undefined when none
 * can. Used for a sandboxed step's own group and, through /proc/<pid>/root, a container's.
 */
export function cgroupCounter(files: readonly string[], key: string): number | undefined {
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  }
  return undefined;
}

const readCounter = (file: string, key: string): number => cgroupCounter([file], key) ?? 0;

/** A v2 group below ours with the memory and pids controllers, or undefined. */
function openV2(mount: Mount, own: string, limits: StepLimits): StepCgroup | undefined {
  const parent = path.join(mount.point, own);
  const dir = path.join(parent, groupName());
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  const have = (file: string) => existsSync(path.join(dir, file));
  // Controllers must be enabled in the parent's subtree_control for the child to have them.
  if (!have('memory.max') || !have('pids.max')) tryWrite(path.join(parent, 'cgroup.subtree_control'), '+memory +pids');
  if (!have('memory.max') || !have('pids.max')) {
    rmdirQuiet(dir);
    return undefined;
  }
  const enforces = new Set<'memory' | 'processes'>();
  if (limits.memoryMb > 0 && tryWrite(path.join(dir, 'memory.max'), String(limits.memoryMb * 2 ** 20))) {
    tryWrite(path.join(dir, 'memory.swap.max'), '0');
    enforces.add('memory');
  }
  if (limits.processes > 0 && tryWrite(path.join(dir, 'pids.max'), String(limits.processes))) enforces.add('processes');
  return group([path.join(dir, 'cgroup.procs')], [dir], [{ source: dir, target: '/sys/fs/cgroup' }], enforces, () => {
    if (readCounter(path.join(dir, 'memory.events'), 'oom_kill') > 0) return 'memory';
    if (readCounter(path.join(dir, 'pids.events'), 'max') > 0) return 'processes';
    return undefined;
  });
}

/** Groups in the v1 memory and pids hierarchies, or undefined when neither can be made. */
function openV1(mounts: Mount[], own: Map<string, string>, limits: StepLimits): StepCgroup | undefined {
  const make = (controller: string): string | undefined => {
    const mount = mounts.find((m) => m.version === 1 && m.controllers.has(controller));
    const at = own.get(controller);
    if (!mount || at === undefined) return undefined;
    const dir = path.join(mount.point, at, groupName());
    try {
      mkdirSync(dir);
      return dir;
    } catch {
      return undefined;
    }
  };
  const enforces = new Set<'memory' | 'processes'>();
  const dirs: string[] = [];
  const memory = limits.memoryMb > 0 ? make('memory') : undefined;
  if (memory) {
    dirs.push(memory);
    const bytes = String(limits.memoryMb * 2 ** 20);
    if (tryWrite(path.join(memory, 'memory.limit_in_bytes'), bytes)) {
      // Memory and swap together, where swap accounting is on: the limit is not dodged by swapping.
      tryWrite(path.join(memory, 'memory.memsw.limit_in_bytes'), bytes);
      enforces.add('memory');
    }
  }
  const pids = limits.processes > 0 ? make('pids') : undefined;
  if (pids) {
    dirs.push(pids);
    if (tryWrite(path.join(pids, 'pids.max'), String(limits.processes))) enforces.add('processes');
  }
  if (dirs.length === 0) return undefined;
  const view = [...(memory ? [{ source: memory, target: '/sys/fs/cgroup/memory' }] : []), ...(pids ? [{ source: pids, target: '/sys/fs/cgroup/pids' }] : [])];
  return group(
    dirs.map((d) => path.join(d, 'cgroup.procs')),
    dirs,
    view,
    enforces,
    () => {
      if (memory && readCounter(path.join(memory, 'memory.oom_control'), 'oom_kill') > 0) return 'memory';
      if (pids && readCounter(path.join(pids, 'pids.events'), 'max') > 0) return 'processes';
      return undefined;
    },
  );
}

/** Removes an empty group; true when it is gone. */
function rmdirQuiet(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function group(
  procsFiles: string[],
  dirs: string[],
  view: { source: string; target: string }[],
  enforces: Set<'memory' | 'processes'>,
  reached: () => LimitKind | undefined,
): StepCgroup {
  let disposed = false;
  return {
    procsFiles,
    enforces,
    view,
    reached,
    async dispose() {
      if (disposed) return;
      disposed = true;
      // A killed step's last processes may take a moment to be reaped (EBUSY until then).
      let left = dirs;
      for (let i = 0; i < 40 && left.length > 0; i++) {
        left = left.filter((d) => !rmdirQuiet(d));
        if (left.length > 0) await delay(25);
      }
    },
  };
}

/** A group for one step with `limits`, or undefined where none can be made here (then rlimits hold). */
export function openStepCgroup(limits: StepLimits): StepCgroup | undefined {
  if (process.platform !== 'linux' || (limits.memoryMb <= 0 && limits.processes <= 0)) return undefined;
  const mounts = cgroupMounts();
  const own = ownPaths();
  const v2 = mounts.find((m) => m.version === 2);
  const v2Path = own.get('');
  // Pure v2 (no v1 controllers mounted): the unified tree has them. Hybrid: the v1 ones do.
  const hasV1 = mounts.some((m) => m.version === 1 && (m.controllers.has('memory') || m.controllers.has('pids')));
  if (v2 && v2Path !== undefined && !hasV1) return openV2(v2, v2Path, limits);
  return openV1(mounts, own, limits);
}
