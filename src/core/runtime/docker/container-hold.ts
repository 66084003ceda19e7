// What holds a container that runs untrusted code (pytest on agent-written code, an agent with
// runIn "container"): no capabilities, no way to gain privileges, the image read-only (only its
// mounts, a size-limited /tmp, /var/tmp and /run, and its scratch folders are writable), and the
// same limits per step as the local sandbox (sweci.limits.*): processes, memory (without swap
// beyond it), file size, no core dumps.
import type Docker from 'dockerode';
import type { SandboxUser, StepLimits } from '../step-limits';

const MIB = 2 ** 20;
const TMP_FOLDERS = ['/tmp', '/var/tmp', '/run'];

/** The HostConfig fields that confine a container; `cpus` 0: no CPU limit; `scratch`: more tmpfs folders of the same size (scratch mounts). */
export function containerHold(limits: StepLimits, cpus: number, scratch: readonly string[] = []): Docker.HostConfig {
  const memory = limits.memoryMb > 0 ? Math.round(limits.memoryMb * MIB) : undefined;
  const tmpSize = limits.tmpMb > 0 ? `,size=${Math.round(limits.tmpMb * MIB)}` : '';
  const fileSize = Math.round(limits.fileSizeMb * MIB);
  return {
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    ReadonlyRootfs: true,
    Tmpfs: Object.fromEntries([...TMP_FOLDERS, ...scratch].map((dir) => [dir, `rw,nosuid,nodev,mode=1777${tmpSize}`])),
    Ulimits: [{ Name: 'core', Soft: 0, Hard: 0 }, ...(fileSize > 0 ? [{ Name: 'fsize', Soft: fileSize, Hard: fileSize }] : [])],
    // Memory and swap together equal to the limit: no swap beyond it, so the limit is what the step gets.
    ...(memory ? { Memory: memory, MemorySwap: memory } : {}),
    ...(limits.processes > 0 ? { PidsLimit: limits.processes } : {}),
    ...(cpus > 0 ? { NanoCpus: Math.round(cpus * 1e9) } : {}),
  };
}

/** `uid:gid` as Docker's User field takes it; never root. */
export function containerUser(user: SandboxUser): string {
  if (user.uid === 0 || user.gid === 0) {
    throw new Error(`A container that runs untrusted code never runs as root (uid or gid 0), not as ${user.uid}:${user.gid}.`);
  }
  return `${user.uid}:${user.gid}`;
}
