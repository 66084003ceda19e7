// What goes wrong with Docker, against a real engine of this file's own (a second dockerd,
// helpers/spare-engine.ts): the engine stops under a run (stopped and started again), pytest
// killed by the memory limit and by the timeout, corrupt and truncated image archives, and no
// engine at all. Each gives one clear message, loses nothing, and leaves no container behind.
// Nothing here needs the machine's shared engine, so the file runs in the unit tier's pool
// (test/unit-lanes.ts) and not one at a time with the files that do.
import { after, before, describe, test } from 'node:test';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { checkOutTask } from '../../../src/core/checkout/check-out-task';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { createRun, runLoop } from '../../../src/core/loop/run-loop';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { isDockerUnavailable } from '../../../src/core/runtime/docker/docker-errors';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { ensureImage } from '../../../src/core/runtime/docker/ensure-image';
import { DEFAULT_STEP_LIMITS } from '../../../src/core/runtime/step-limits';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { DEFAULT_RUNTIME_SETTINGS, type RuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { openTaskEnvironment } from '../../../src/core/runtime/task-environment';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { UserError } from '../../../src/core/util/errors';
import { DEMO_IMAGE, demoImageArchive } from '../../../scripts/demo-image';
import { ourContainers } from '../helpers/containers';
import { SpareEngine } from '../helpers/spare-engine';
import { PYTHON, scripted } from '../loop/demo-fixture';

let tmp: string;
let engine: SpareEngine;

/** A tiny pytest project: one passing test, and optionally one that does `body`. */
async function project(name: string, body?: string): Promise<string> {
  const code = path.join(tmp, name, 'code');
  await fs.mkdir(path.join(code, 'tests'), { recursive: true });
  await fs.writeFile(path.join(code, 'tests', 'test_ok.py'), 'def test_ok():\n    assert True\n');
  if (body) await fs.writeFile(path.join(code, 'tests', 'test_fault.py'), `def test_fault():\n${body.replace(/^/gm, '    ')}\n`);
  return code;
}

const pytestIn = (rt: DockerRuntime | LocalRuntime, code: string, extra: Partial<Parameters<typeof runPytest>[1]> = {}) =>
  runPytest(rt, { python: 'python', codeDir: code, reportFile: path.join(path.dirname(code), 'out', 'report'), format: 'junit', timeoutMs: 120_000, ...extra });

const docker = (extra: Partial<RuntimeSettings['docker']> = {}): RuntimeSettings => ({
  ...DEFAULT_RUNTIME_SETTINGS,
  runtime: 'docker',
  docker: { ...DEFAULT_RUNTIME_SETTINGS.docker, ...extra },
});

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Docker faults (real engines)', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-docker-faults-')));
    engine = await SpareEngine.create();
    await ensureImage(engine.connection, { archive: demoImageArchive() });
  });

  after(async () => {
    assert.deepEqual(await ourContainers(engine.connection), [], 'no container of ours may remain');
    await engine.dispose();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('the engine stops mid-pytest: "did not run" with what to do; after a restart the next run works; no container left', async () => {
    const rt = new DockerRuntime({ connection: engine.connection, image: DEMO_IMAGE, purpose: 'fault' });
    const code = await project('engine-stop', 'import time\ntime.sleep(60)');
    const running = pytestIn(rt, code);
    // Stop the engine once pytest is running in its container.
    await waitFor('pytest to start', async () => (await engine.connection.docker.listContainers()).length > 0);
    await new Promise((r) => setTimeout(r, 1000));
    await engine.stop();
    const outcome = await running;
    assert.equal(outcome.kind, 'did-not-run');
    assert.ok(outcome.kind === 'did-not-run' && outcome.engineFailure, JSON.stringify({ ...outcome, invocation: undefined }));
    assert.match(
      outcome.kind === 'did-not-run' ? outcome.reason : '',
      /Docker engine at .* (did not answer while running python|stopped the container while it ran python).*Start Docker/,
    );

    await engine.start();
    await fs.rm(path.join(code, 'tests', 'test_fault.py'));
    const next = await pytestIn(rt, code);
    assert.equal(next.kind, 'ran', next.kind === 'did-not-run' ? next.reason : '');
    assert.equal(next.kind === 'ran' && next.report.summary.passed, 1);
    await rt.dispose();
    assert.deepEqual(await ourContainers(engine.connection), [], 'the containers of the stopped run are removed too');
  });

  test('the engine stops under a loop iteration: it is recorded as "pytest did not run", nothing is lost, and the next iteration runs', async () => {
    const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { python: PYTHON });
    const [spec] = await readDatasetTasks(demo.datasetDir, 'default');
    const env = await openTaskEnvironment(docker({ socketPath: engine.socket, image: DEMO_IMAGE }), {}, { hostPython: PYTHON });
    const taskDir = path.join(tmp, 'loop-task');
    try {
      await checkOutTask(spec, {
        python: env.python,
        timeoutMs: 120_000,
        format: 'junit',
        task: taskFolder(taskDir),
        oracleDir: path.join(tmp, 'loop-oracle'),
        runtime: env.tests,
        environment: env.record,
        runTests: true,
      });
      // The programmer changes nothing: what matters here is the pytest step.
      const roles = { architect: scripted('architect.py'), programmer: scripted('no-output.py') };
      const opts = {
        task: taskFolder(taskDir),
        run: 'r',
        roles,
        runtime: env.tests,
        pytest: { python: env.python, timeoutMs: 120_000, format: 'junit' as const },
      };
      await createRun(opts);
      let stopping: Promise<void> | undefined;
      const first = await runLoop({
        ...opts,
        iterations: 1,
        onEvent: (e) => {
          if (e.type === 'step-started' && e.step === 'pytest') stopping = engine.stop();
        },
      });
      await stopping;
      assert.equal(first.recorded.length, 1);
      assert.equal(first.recorded[0].gap, -1);
      assert.match(first.recorded[0].pytest_error ?? '', /Docker engine .* (did not answer|stopped the container)/);
      await engine.start();
      const second = await runLoop({ ...opts, iterations: 1 });
      assert.equal(second.recorded.length, 1);
      assert.ok(second.recorded[0].gap > 0, 'pytest ran again');
      const lines = await readIterationRecords(taskFolder(taskDir).run('r').iterationsFile);
      assert.deepEqual(
        lines.map((l) => l.iteration),
        [0, 1, 2],
        'no line lost or doubled',
      );
    } finally {
      await env.dispose();
      // A failure above must not leave the engine stopped for the tests after this one.
      if (!engine.running) await engine.start();
    }
    assert.deepEqual(await ourContainers(engine.connection), []);
  });

  test('pytest killed by the memory limit is recorded as not run, and its container is gone', async () => {
    const rt = new DockerRuntime({ connection: engine.connection, image: DEMO_IMAGE, limits: { ...DEFAULT_STEP_LIMITS, memoryMb: 128 }, purpose: 'fault' });
    const code = await project('memory', 'x = []\nwhile True:\n    x.append(bytearray(10**7))');
    const outcome = await pytestIn(rt, code);
    assert.equal(outcome.kind, 'did-not-run');
    assert.match(outcome.kind === 'did-not-run' ? outcome.reason : '', /memory limit/);
    await rt.dispose();
    assert.deepEqual(await ourContainers(engine.connection), []);
  });

  test('pytest killed by the timeout is recorded as not run, and its container is gone', async () => {
    const rt = new DockerRuntime({ connection: engine.connection, image: DEMO_IMAGE, purpose: 'fault' });
    const code = await project('timeout', 'import time\ntime.sleep(120)');
    const started = Date.now();
    const outcome = await pytestIn(rt, code, { timeoutMs: 3000 });
    assert.equal(outcome.kind, 'did-not-run');
    assert.ok(outcome.kind === 'did-not-run' && outcome.timedOut);
    // Well under the test's 120 s sleep, however slow the engine: killed, not waited for.
    assert.ok(Date.now() - started < 90_000);
    await rt.dispose();
    assert.deepEqual(await ourContainers(engine.connection), []);
  });

  test('cancelling the image load stops it: nothing is loaded, and the next checkout loads it whole', async () => {
    const spare = engine.connection;
    await spare.docker
      .getImage(DEMO_IMAGE)
      .remove({ force: true })
      .catch(() => undefined);
    const abort = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      ensureImage(spare, {
        archive: demoImageArchive(),
        signal: abort.signal,
        onProgress: (m, fraction) => {
          seen.push(m);
          if (fraction !== undefined && fraction > 0.1) abort.abort();
        },
      }),
      (err: unknown) => (err as Error).name === 'AbortError',
    );
    assert.ok(
      seen.some((m) => /Loading .* \(\d+ %\)/.test(m)),
      seen.join('\n'),
    );
    const present = await spare.docker
      .getImage(DEMO_IMAGE)
      .inspect()
      .then(
        () => true,
        () => false,
      );
    assert.equal(present, false, 'a cancelled load leaves no image behind');
    const again = await ensureImage(spare, { archive: demoImageArchive() });
    assert.equal(again.loaded, true);
  });

  test('a truncated, a corrupt and a non-image archive are refused with a message naming the file', async () => {
    const whole = await fs.readFile(demoImageArchive());
    const cases: Array<[string, Buffer, RegExp]> = [
      ['truncated.tar.gz', whole.subarray(0, Math.floor(whole.length / 2)), /ends early \(truncated\)/],
      [
        'corrupt.tar.gz',
        Buffer.concat([whole.subarray(0, 64), Buffer.alloc(4096, 7), whole.subarray(4160)]),
        /not valid gzip data|not a valid tar archive|truncated/,
      ],
      ['not-docker.tar.gz', await gzipTarOf(path.join(tmp, 'plain')), /has no manifest\.json/],
    ];
    for (const [name, bytes, why] of cases) {
      const file = path.join(tmp, name);
      await fs.writeFile(file, bytes);
      await assert.rejects(openTaskEnvironment(docker({ socketPath: engine.socket }), { imageArchive: file }, { hostPython: PYTHON }), (err: unknown) => {
        assert.ok(err instanceof UserError, String(err));
        assert.ok(err.message.includes(file), err.message);
        assert.match(err.message, why);
        assert.match(err.message, /Download the task again/);
        return true;
      });
    }
  });

  // What `auto` does with no engine (Podman, else this machine, and why) is auto-runtime.test's.
  test('no engine at all: "docker" says what to do', async () => {
    const nowhere = path.join(tmp, 'no-engine.sock');
    const archive = demoImageArchive();
    await assert.rejects(openTaskEnvironment(docker({ socketPath: nowhere }), { imageArchive: archive }, { hostPython: PYTHON }), (err: unknown) => {
      assert.ok(isDockerUnavailable(err));
      assert.match((err as Error).message, new RegExp(`Docker engine at ${nowhere.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} did not answer`));
      assert.match(
        (err as Error).message,
        /Start Docker, point DOCKER_HOST or the sweci\.docker\.socketPath setting at an engine that answers, or set sweci\.runtime to "local"/,
      );
      return true;
    });
  });
});

/** A gzipped tar of a folder with one text file: valid, but not a `docker save`. */
async function gzipTarOf(dir: string): Promise<Buffer> {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'hello.txt'), 'hello\n');
  const { execFileSync } = await import('node:child_process');
  return execFileSync('tar', ['-czf', '-', '-C', dir, '.']);
}
