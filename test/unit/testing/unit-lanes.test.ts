// The unit tier's plan (test/unit-lanes.ts) on the real compiled test tree: every file runs once,
// every file of the shared Docker engine is in the serial lane (one at a time, so none overlaps
// another), one with an engine of its own is not, and each lane starts its longest files first.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SECONDS, estimateSeconds, laneSeconds, planLanes, POOL_CONCURRENCY, simulateLane, usesDocker } from '../../unit-lanes';

const UNIT_DIR = path.join(__dirname, '..');
const TEST_ROOT = path.dirname(UNIT_DIR);

const files = (readdirSync(UNIT_DIR, { recursive: true }) as string[])
  .map((f) => f.split(path.sep).join('/'))
  .filter((f) => f.endsWith('.test.js'))
  .sort();
const isDocker = (file: string) => usesDocker(path.join(UNIT_DIR, file), TEST_ROOT);

describe('the unit tier plan', () => {
  const lanes = planLanes(files, isDocker);
  const [pool, serial, solo] = lanes;

  test('every test file is in exactly one lane', () => {
    const planned = lanes.flatMap((l) => l.files);
    assert.equal(planned.length, files.length);
    assert.deepEqual([...planned].sort(), files);
  });

  test('the files that reach the Docker helper, directly or through a fixture, are the serial lane, one at a time', () => {
    assert.equal(serial.concurrency, 1);
    for (const known of ['runtime/docker-task.test.js', 'agents/real-agents-container.test.js', 'pytest/report-plugin-parity.test.js']) {
      assert.ok(serial.files.includes(known), `${known} uses the engine`);
    }
    // The solo lane runs alone, after the others: a file of the shared engine may be there.
    for (const file of pool.files) assert.equal(isDocker(file), false, `${file} uses the engine in the pool`);
    for (const plain of ['runtime/runtime-settings.test.js', 'agents/prompts.test.js', 'agents/real-agents.test.js'])
      assert.equal(isDocker(plain), false, `${plain} only names Docker`);
    // An engine or a Podman store of the file's own (helpers/spare-engine.ts, a store in its temp
    // folder) touches nothing of the shared engine: those files run in the pool, beside it.
    for (const own of ['runtime/docker-faults.test.js', 'runtime/image-budget.test.js', 'runtime/podman-images.test.js', 'slurm/slurm-podman.test.js'])
      assert.ok(pool.files.includes(own), `${own} uses an engine of its own`);
    // A file whose Docker tests are a file of their own runs in the pool; that file, in the serial lane.
    for (const [local, docker] of [
      ['pytest/run-pytest.test.js', 'pytest/run-pytest-docker.test.js'],
      ['cli/cli.test.js', 'cli/cli-docker.test.js'],
    ]) {
      assert.ok(pool.files.includes(local), `${local} has no test of the shared engine`);
      assert.ok(serial.files.includes(docker), `${docker} uses the engine`);
    }
    // One at a time: no two serial files overlap, whatever their lengths.
    const runs = simulateLane(serial);
    for (let i = 1; i < runs.length; i++) assert.ok(runs[i].start >= runs[i - 1].end);
  });

  test('the timing files, and the files that exhaust the machine on purpose, run alone', () => {
    assert.deepEqual([...solo.files].sort(), [
      'loop/loop-exhaustion.test.js',
      'runtime/docker-exhaustion.test.js',
      'runtime/sandbox.test.js',
      'server/requirement-server-fuzz.test.js',
    ]);
    // The least-privilege tests that exhaust nothing share the engine as any other: the serial lane.
    assert.ok(serial.files.includes('runtime/docker-least-privilege.test.js'));
    assert.equal(solo.concurrency, 1);
  });

  test('each lane starts its longest files first; a file with no estimate is taken as DEFAULT_SECONDS', () => {
    for (const lane of lanes) {
      const seconds = lane.files.map(estimateSeconds);
      assert.deepEqual(
        seconds,
        [...seconds].sort((a, b) => b - a),
        lane.name,
      );
    }
    const plan = planLanes(
      ['a/new.test.js', 'loop/loop-demo.test.js', 'util/tiny.test.js'],
      () => false,
      (f) => (f === 'util/tiny.test.js' ? 1 : estimateSeconds(f)),
    );
    assert.equal(estimateSeconds('a/new.test.js'), DEFAULT_SECONDS);
    assert.deepEqual(plan[0].files, ['loop/loop-demo.test.js', 'a/new.test.js', 'util/tiny.test.js']);
  });

  test('POOL_CONCURRENCY at a time, longest first: the pool ends within its longest file of an even split', () => {
    assert.equal(pool.concurrency, POOL_CONCURRENCY);
    const total = pool.files.reduce((s, f) => s + estimateSeconds(f), 0);
    const longest = Math.max(...pool.files.map(estimateSeconds));
    assert.ok(laneSeconds(pool) <= total / POOL_CONCURRENCY + longest);
  });
});
