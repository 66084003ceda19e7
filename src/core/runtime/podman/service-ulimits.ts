// The limits a Podman service process runs under, read from /proc: what each of its containers is
// given (podman-service.ts says why).
import { readFileSync } from 'node:fs';
import type { EngineTraits } from '../docker/docker-connection';

/**
 * The service's own open-files and process limits, given to each container: Podman otherwise sets
 * its defaults (1048576 files, 4194304 processes) whenever a container names any rlimit, and where
 * root may not raise its limits (a VM or container whose init caps them) every start then fails
 * with "error setting rlimit type 7". Within the service's own limits, nothing needs raising.
 * sweci.limits.processes holds the step by its cgroup (pids), as in Docker.
 */
export function serviceUlimits(pid: number | undefined, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): EngineTraits['ulimits'] {
  if (!pid) return [];
  let text: string;
  try {
    text = read(`/proc/${pid}/limits`);
  } catch {
    return [];
  }
  const out: NonNullable<EngineTraits['ulimits']> = [];
  for (const [label, name] of [
    ['Max open files', 'nofile'],
    ['Max processes', 'nproc'],
  ] as const) {
    const m = new RegExp(`^${label}\\s+(\\d+)\\s+(\\d+)`, 'm').exec(text);
    if (m) out.push({ Name: name, Soft: Number(m[1]), Hard: Number(m[2]) });
  }
  return out;
}
