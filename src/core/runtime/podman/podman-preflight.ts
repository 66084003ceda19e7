// What Podman needs on this machine before SWE-CI starts it, each missing piece refused with its
// fix: the podman program; as a user (rootless), subordinate ids and newuidmap to map them; and,
// where limits are asked for, a cgroup tree that rootless Podman can hold containers in (on
// cgroup v1 it ignores --memory and --pids-limit with a warning: a step would run unlimited).
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
}

export interface PodmanPreflightOptions {
  limits: StepLimits;
  cpus: number;
  env?: NodeJS.ProcessEnv;
  /** For tests: who runs SWE-CI, /etc/subuid's and /etc/subgid's text, and whether cgroup v2 is mounted. */
  user?: { uid: number; names: string[] };
  subuid?: string;
  subgid?: string;
  cgroupV2?: boolean;
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

export function checkPodmanHost(opts: PodmanPreflightOptions): PodmanHost {
  const env = opts.env ?? process.env;
  const podman = findTrustedProgram('podman', env.PATH ?? '');
  if (!podman) throw new UserError(`--runtime podman needs Podman, and there is no podman on PATH. ${INSTALL}`);
  const { names, uid } = opts.user ?? whoAmI();
  const rootless = uid !== 0;
  if (!rootless) return { podman, rootless };
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
  return { podman, rootless };
}
