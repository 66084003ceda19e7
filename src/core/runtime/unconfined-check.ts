// A headless run never drops confinement silently: before anything is checked out, whether the
// agents (and pytest, on this machine) can be confined the way the settings ask, and if not,
// one line naming the cause and the fix. The extension shows the same as "not isolated" instead.
import type { RuntimeSettings } from './runtime-settings';
import { probeBubblewrap } from './sandbox';

/**
 * Why agents or pytest would run unconfined with these settings, or undefined when every step is
 * confined (by the sandbox here, or by a container).
 */
export async function unconfinedCause(
  runtime: RuntimeSettings,
  roles: readonly { kind: string; runIn?: string }[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const agentsHere = roles.some((r) => r.kind !== 'human' && r.runIn !== 'container');
  // pytest runs here with the local runtime, and with auto when the task has no image.
  const pytestHere = runtime.runtime !== 'docker' && runtime.runtime !== 'podman';
  if (!agentsHere && !pytestHere) return undefined;
  const who = agentsHere ? 'the agents' : 'pytest (the code under test)';
  if (runtime.sandbox === 'off') return `sweci.sandbox is off (--sandbox off), so ${who} would run unconfined`;
  const probe = await probeBubblewrap();
  if ('bwrap' in probe) return undefined;
  // An element of a Slurm job: the fix is the compute nodes', which the user asks the admins for.
  if (env.SLURM_JOB_ID && probe.problem !== 'not-linux') return slurmCause(probe.problem, probe.detail, who, env.SLURM_JOB_ID);
  switch (probe.problem) {
    case 'not-linux':
      return `the sandbox needs Linux, so ${who} would run unconfined: use --runtime docker with the agents in containers (runIn: container)`;
    case 'not-installed':
      return `bubblewrap is not installed, so ${who} would run unconfined: install it (Debian/Ubuntu: apt-get install bubblewrap)`;
    default:
      return (
        `bubblewrap cannot make its namespaces here (${probe.detail ?? 'refused'}), so ${who} would run unconfined. ` +
        'In a container or a Kubernetes pod, allow user namespaces: seccomp and AppArmor unconfined and /proc unmasked ' +
        '(docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined; ' +
        'the Job sweci k8s writes asks for them)'
      );
  }
}

function slurmCause(problem: 'not-installed' | 'refused', detail: string | undefined, who: string, job: string): string {
  const where = `in Slurm job ${job}`;
  if (problem === 'not-installed')
    return `bubblewrap is not installed on this compute node (${where}${detail ? `; ${detail}` : ''}), so ${who} would run unconfined: have it installed on every node of the partition (Debian/Ubuntu: apt-get install bubblewrap)`;
  return (
    `bubblewrap cannot make its namespaces on this compute node (${where}: ${detail ?? 'refused'}), so ${who} would run unconfined. ` +
    'The nodes must allow unprivileged user namespaces (sysctl user.max_user_namespaces above 0; on Ubuntu 24.04 also ' +
    'kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap): ask the cluster admins, or choose a partition whose nodes allow them'
  );
}
