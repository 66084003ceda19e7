// The one parser of where commands run (sweci.runtime, sweci.docker.*), for the extension's
// settings and the CLI's options, and the path mapping every call site relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RUNTIME_SETTINGS, readRuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { assertValidMounts, mapToMount } from '../../../src/core/runtime/mounts';
import { DEFAULT_STEP_LIMITS } from '../../../src/core/runtime/step-limits';
import { UserError } from '../../../src/core/util/errors';

const from = (values: Record<string, unknown>) => readRuntimeSettings((key) => values[key]);

test('nothing set gives the defaults: auto, the step limits for containers too, no network', () => {
  const s = from({});
  assert.deepEqual(s, DEFAULT_RUNTIME_SETTINGS);
  assert.equal(s.runtime, 'auto');
  assert.equal(s.sandbox, 'auto');
  assert.deepEqual(s.limits, DEFAULT_STEP_LIMITS);
  assert.equal(s.docker.cpus, 0);
  assert.equal(s.docker.network, false);
  assert.equal(s.docker.python, 'python');
});

test('values are read, trimmed and converted (the CLI passes text)', () => {
  const s = from({
    runtime: 'docker',
    'docker.image': ' img:1 ',
    'limits.memoryMb': '2048',
    'docker.cpus': 1.5,
    'docker.network': 'true',
    'docker.python': '',
  });
  assert.equal(s.runtime, 'docker');
  assert.equal(from({ sandbox: 'off' }).sandbox, 'off');
  assert.equal(s.docker.image, 'img:1');
  assert.equal(s.limits.memoryMb, 2048);
  assert.equal(s.docker.cpus, 1.5);
  assert.equal(from({ 'docker.imageBudgetGb': '40' }).docker.imageBudgetGb, 40);
  assert.equal(from({ 'docker.imageBudgetGb': 2.5 }).docker.imageBudgetGb, 2.5);
  assert.equal(from({}).docker.imageBudgetGb, 0, 'no budget unless one is set');
  assert.equal(s.docker.network, true);
  assert.equal(s.docker.python, 'python', 'an empty interpreter falls back to python');
  const p = from({ runtime: 'podman', 'podman.root': ' /scratch/podman ', 'podman.runroot': '/tmp/podman-run' });
  assert.deepEqual([p.runtime, p.podman.root, p.podman.runroot], ['podman', '/scratch/podman', '/tmp/podman-run']);
  assert.deepEqual(from({}).podman, { root: '', runroot: '' }, "Podman's own defaults unless set");
});

test('bad values name the setting, or the option the caller calls it', () => {
  assert.throws(
    () => from({ runtime: 'apptainer' }),
    (e: unknown) => e instanceof UserError && /sweci\.runtime must be one of auto, docker, podman, local, not "apptainer"/.test(e.message),
  );
  assert.throws(() => from({ 'podman.root': 'store' }), /sweci\.podman\.root must be an absolute folder, not "store"/);
  assert.throws(() => from({ sandbox: 'firejail' }), /sweci\.sandbox must be one of auto, bubblewrap, off, not "firejail"/);
  assert.throws(() => from({ 'limits.memoryMb': -1 }), /The setting sweci\.limits\.memoryMb must be a number of MiB, 0 or more/);
  assert.throws(() => from({ 'docker.network': 'yes' }), /sweci\.docker\.network must be true or false/);
  assert.throws(
    () =>
      readRuntimeSettings(
        (k) => (k === 'docker.cpus' ? 'many' : undefined),
        (k) => (k === 'docker.cpus' ? '--cpus' : k),
      ),
    /--cpus must be a number of CPUs/,
  );
  assert.throws(
    () =>
      readRuntimeSettings(
        (k) => (k === 'docker.imageBudgetGb' ? '-5' : undefined),
        (k) => (k === 'docker.imageBudgetGb' ? '--image-budget-gb' : k),
      ),
    /--image-budget-gb must be a number of GB, 0 or more \(0: no limit\), not "-5"/,
  );
});

test('the Docker limits that sweci.limits.* replaced are refused, naming what to set instead (not silently ignored)', () => {
  assert.throws(
    () => from({ 'docker.memoryMb': 2048 }),
    (e: unknown) =>
      e instanceof UserError &&
      /the setting sweci\.docker\.memoryMb is no longer read: containers and sandboxed steps share the setting sweci\.limits\.memoryMb/i.test(e.message),
  );
  assert.throws(() => from({ 'docker.pidsLimit': 100 }), /sweci\.docker\.pidsLimit is no longer read: .* sweci\.limits\.processes/);
  assert.throws(
    () =>
      readRuntimeSettings(
        (k) => (k === 'docker.memoryMb' ? '512' : undefined),
        (k) => ({ 'docker.memoryMb': '--memory-mb', 'limits.memoryMb': '--max-memory-mb' })[k] ?? k,
      ),
    /--memory-mb is no longer read: containers and sandboxed steps share --max-memory-mb/,
  );
});

test('host paths map to the longest mount that holds them; paths outside every mount are refused', () => {
  const mounts = [
    { source: '/work/task/app', target: '/app' },
    { source: '/work/task/app/code', target: '/src' },
    { source: '/work/task/.sweci/reports/pytest-out', target: '/sweci/report' },
  ];
  assert.equal(mapToMount(mounts, '/work/task/app/code/tests/a.py'), '/src/tests/a.py');
  assert.equal(mapToMount(mounts, '/work/task/app/requirement.xml'), '/app/requirement.xml');
  assert.equal(mapToMount(mounts, '/work/task/app'), '/app');
  assert.throws(() => mapToMount(mounts, '/work/task/.sweci/task.json'), /outside every mount/);
  assert.throws(() => mapToMount(mounts, '/work/task/application'), /outside every mount/, 'a shared prefix is not a parent');
});

test('mount targets must be absolute and distinct', () => {
  assert.throws(() => assertValidMounts([{ source: '/a', target: 'app' }]), /not an absolute path/);
  assert.throws(() => assertValidMounts([{ source: '/a', target: '/app/../etc' }]), /not an absolute path/);
  assert.throws(() => assertValidMounts([{ source: 'rel', target: '/app' }]), /not an absolute path/);
  assert.throws(
    () =>
      assertValidMounts([
        { source: '/a', target: '/app' },
        { source: '/b', target: '/app/' },
      ]),
    /share the target/,
  );
});

test("agent containers' network: bridge by default; host and container:<name> are taken; anything else is refused with the choices", () => {
  assert.equal(from({}).docker.agentNetwork, 'bridge');
  assert.equal(from({ 'docker.agentNetwork': 'host' }).docker.agentNetwork, 'host');
  assert.equal(from({ 'docker.agentNetwork': ' container:model-proxy ' }).docker.agentNetwork, 'container:model-proxy');
  for (const bad of ['none', 'container:', 'container:a b', 'my-net']) {
    assert.throws(
      () => from({ 'docker.agentNetwork': bad }),
      (e: unknown) => e instanceof UserError && /sweci\.docker\.agentNetwork must be "bridge", "host" or "container:<name>"/.test(e.message),
      bad,
    );
  }
});
