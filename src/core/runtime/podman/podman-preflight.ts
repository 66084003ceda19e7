// What Podman needs on this machine before SWE-CI starts it, each missing piece refused with its
// fix: the podman program; as a user (rootless), subordinate ids and newuidmap to map them; and,
// where limits are asked for, a cgroup tree that rootless Podman can hold containers in (on
// cgroup v1 it ignores --memory and --pids-limit with a warning: a step would run unlimited).
// On a hybrid cgroup host (v1 controllers, plus a v2 tree that holds a controller of its own),
// crun, Podman's default OCI runtime on Debian, refuses every container ("cgroups in hybrid mode
// not supported"); runc runs them there (Docker uses it too), so Podman is told to use runc.
import { existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import { UserError } from '../../util/errors';
import { findTrustedProgram } from '../../util/trusted-program';
import type { StepLimits } from '../step-limits';

export interface PodmanHost {
  /** The podman program, found on PATH. */
  podman: string;
  /** True when SWE-CI runs as a user: Podman is then rootless. */
  rootless: boolean;
  /** The OCI runtime Podman must use here instead of its default (runc on a hybrid cgroup host). */
  ociRuntime?: string;
}

export interface PodmanPreflightOptions {
  limits: StepLimits;
  cpus: number;
  env?: NodeJS.ProcessEnv;
  /**
   * For tests: who runs SWE-CI, /etc/subuid's and /etc/subgid's text, whether cgroup v2 is mounted
   * (unified), and whether the host is hybrid with a controller in its v2 tree.
   */
  user?: { uid: number; names: string[] };
  subuid?: string;
  subgid?: string;
  cgroupV2?: boolean;
  hybridCgroups?: boolean;
  /** For tests: where runc is looked for (else PATH and the sbin folders, where Debian puts it). */
  runcSearchPath?: string;
}

const INSTALL = 'Install it (Debian/Ubuntu: apt-get install podman uidmap slirp4netns fuse-overlayfs catatonit), or choose --runtime docker or local.';

/** The user's name and ids, as /etc/subuid may list them. */
function whoAmI(): { names: string[]; uid: number } {
  const uid = process.getuid?.() ?? 0;
  const names = [String(uid)];
  try {
    names.unshift(os.userInfo().username);
  } catch {
    // No passwd entry: only the numeric id can be listed.
  }
  return { names, uid };
}

/** Whether `file`'s text gives one of `names` at least 65536 ids (`name:start:count` lines). */
function hasRange(text: string, names: readonly string[]): boolean {
  return text.split('\n').some((line) => {
    const [who, , count] = line.trim().split(':');
    return who !== undefined && names.includes(who) && Number(count) >= 65536;
  });
}

const readOr = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** cgroup v1 controllers with a v2 tree beside them that holds a controller (hugetlb, say): crun refuses such a host. */
function hybridWithV2Controllers(): boolean {
  if (existsSync('/sys/fs/cgroup/cgroup.controllers')) return false;
  return readOr('/sys/fs/cgroup/unified/cgroup.controllers').trim() !== '';
}

/** runc where crun cannot run containers (a hybrid cgroup host); undefined where Podman's default does. */
function ociRuntimeFor(opts: PodmanPreflightOptions, path: string): string | undefined {
  if (!(opts.hybridCgroups ?? hybridWithV2Controllers())) return undefined;
  // A user's PATH often lacks the sbin folders; Podman itself looks there for its runtimes.
  const runc = findTrustedProgram('runc', opts.runcSearchPath ?? [path, '/usr/local/sbin', '/usr/sbin', '/sbin'].join(':'));
  if (runc) return runc;
  throw new UserError(
    'This machine has hybrid cgroups (cgroup v1 with a v2 tree that holds a controller), where crun, the OCI runtime Podman uses by default, refuses to start containers. ' +
      'Install runc (Debian/Ubuntu: apt-get install runc), which SWE-CI then has Podman use here, or choose --runtime docker or local.',
  );
}

export function checkPodmanHost(opts: PodmanPreflightOptions): PodmanHost {
  const env = opts.env ?? process.env;
  const podman = findTrustedProgram('podman', env.PATH ?? '');
  if (!podman) throw new UserError(`Podman is not installed here: there is no podman on PATH. ${INSTALL}`);
  const { names, uid } = opts.user ?? whoAmI();
  const rootless = uid !== 0;
  const ociRuntime = ociRuntimeFor(opts, env.PATH ?? '');
  const found = { podman, rootless, ...(ociRuntime ? { ociRuntime } : {}) };
  if (!rootless) return found;
  if (!findTrustedProgram('newuidmap', env.PATH ?? '') || !findTrustedProgram('newgidmap', env.PATH ?? '')) {
    throw new UserError(`Rootless Podman needs newuidmap and newgidmap, and they are not on PATH. Install them (Debian/Ubuntu: apt-get install uidmap).`);
  }
  const subuid = opts.subuid ?? readOr('/etc/subuid');
  const subgid = opts.subgid ?? readOr('/etc/subgid');
  if (!hasRange(subuid, names) || !hasRange(subgid, names)) {
    const name = names[0];
    throw new UserError(
      `Rootless Podman needs subordinate user and group ids for ${name} (uid ${uid}), and /etc/subuid or /etc/subgid gives it fewer than 65536. ` +
        `Ask an administrator to run: usermod --add-subuids 100000-165535 --add-subgids 100000-165535 ${name} (then podman system migrate), or run SWE-CI as root.`,
    );
  }
  const limited = opts.limits.memoryMb > 0 || opts.limits.processes > 0 || opts.cpus > 0;
  const v2 = opts.cgroupV2 ?? existsSync('/sys/fs/cgroup/cgroup.controllers');
  if (limited && !v2) {
    throw new UserError(
      'Rootless Podman cannot hold containers to their limits on this machine: it has cgroup v1, where Podman ignores memory, process and CPU limits for a user. ' +
        'Run SWE-CI as root here, use a host with cgroup v2 (the memory and pids controllers delegated to your user), ' +
        'or, knowing steps then run unlimited, set --max-memory-mb 0 --max-processes 0 --cpus 0 (sweci.limits.memoryMb, sweci.limits.processes, sweci.docker.cpus).',
    );
  }
  return found;
}
