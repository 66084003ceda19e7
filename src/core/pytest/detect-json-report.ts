// Whether the pytest-json-report plugin is importable by an interpreter. Asked once per
// runtime and interpreter: the answer only changes when someone installs the plugin. The probe
// runs with pytest's clean environment, from a folder the code under test does not control
// (`python -c` imports from its working folder: a planted module must not pass for the plugin).
import type { Mount, Runtime } from '../runtime/runtime';

const cache = new WeakMap<Runtime, Map<string, Promise<boolean>>>();

const PROBE_TIMEOUT_MS = 60_000;

export function hasJsonReport(runtime: Runtime, python: string, cwd: string, mounts: readonly Mount[] = []): Promise<boolean> {
  let perRuntime = cache.get(runtime);
  if (!perRuntime) {
    perRuntime = new Map();
    cache.set(runtime, perRuntime);
  }
  const known = perRuntime.get(python);
  if (known) return known;
  const probe = runtime
    .run({ command: python, args: ['-c', 'import pytest_jsonreport'], cwd, cleanEnv: true, timeoutMs: PROBE_TIMEOUT_MS, mounts })
    .then((r) => {
      // A probe that hung or was killed says nothing about the plugin; don't remember it.
      if (r.timedOut || r.cancelled) perRuntime?.delete(python);
      return r.exitCode === 0;
    });
  perRuntime.set(python, probe);
  // A failure to run the interpreter at all (bad path) is not an answer either.
  probe.catch(() => perRuntime?.delete(python));
  return probe;
}
