// Which of its limits a container ran into, read before it is killed (a container runs one
// command, so its counters are that command's). The kernel's own counters where this process can
// read them: the container's cgroup as the container sees it, through /proc/<pid>/root (the
// engine on this machine; cgroup v1 or v2). Where it cannot (an engine on another machine), the
// engine's statistics still tell a memory limit reached by the command itself (exit code 137).
import type Docker from 'dockerode';
import type { LimitKind, StepLimits } from '../step-limits';
import { cgroupCounter } from '../step-cgroup';

/** Exit code of a process killed by SIGXFSZ (it wrote past the file size limit). */
const SIGXFSZ_EXIT = 128 + 25;
const SIGKILL_EXIT = 128 + 9;

export async function limitReachedIn(container: Docker.Container, limits: StepLimits, exitCode: number | null): Promise<LimitKind | undefined> {
  const pid = await container.inspect().then(
    (info) => info.State?.Pid ?? 0,
    () => 0,
  );
  const cgroup = pid > 0 ? `/proc/${pid}/root/sys/fs/cgroup` : undefined;
  if (limits.memoryMb > 0) {
    const oomKills = cgroup ? cgroupCounter([`${cgroup}/memory.events`, `${cgroup}/memory/memory.oom_control`], 'oom_kill') : undefined;
    if (oomKills !== undefined ? oomKills > 0 : exitCode === SIGKILL_EXIT && (await peakedByStats(container))) return 'memory';
  }
  if (limits.processes > 0 && cgroup && (cgroupCounter([`${cgroup}/pids.events`, `${cgroup}/pids/pids.events`], 'max') ?? 0) > 0) return 'processes';
  if (limits.fileSizeMb > 0 && exitCode === SIGXFSZ_EXIT) return 'file-size';
  return undefined;
}

/** The engine's statistics: cgroup v1 reports the peak against the limit (and failcnt); v2 counts OOM kills. */
async function peakedByStats(container: Docker.Container): Promise<boolean> {
  try {
    const stats = (await container.stats({ stream: false, 'one-shot': true } as { stream: false })) as {
      memory_stats?: { failcnt?: number; max_usage?: number; limit?: number; stats?: Record<string, number> };
    };
    const m = stats.memory_stats;
    const peaked = m?.max_usage !== undefined && m.limit !== undefined && m.max_usage >= m.limit;
    return peaked || (m?.failcnt ?? 0) > 0 || (m?.stats?.oom_kill ?? 0) > 0;
  } catch {
    return false;
  }
}
