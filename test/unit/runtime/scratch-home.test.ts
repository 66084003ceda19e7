// An agent's private home when the step is confined: a fresh, size-limited copy in memory of the
// folder the harness prepared (a scratch mount), for real through bubblewrap and a Docker engine,
// as root with default settings. The step reads what was prepared and writes its home as its own
// user; what it writes never reaches the host, even when it tries to fill the home.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { findBubblewrap, harnessIsRoot } from '../../../src/core/runtime/sandbox';
import { DEFAULT_STEP_LIMITS } from '../../../src/core/runtime/step-limits';
import type { Runtime } from '../../../src/core/runtime/runtime';
import { missingSandbox } from '../helpers/require-sandbox';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';
import { ENGINES, podmanForTests } from '../helpers/podman';
import { filesHolding } from '../helpers/list-tree';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
/** Small, so that filling it is quick: the limit is what is tested, not its default. */
const HOME_MB = 8;

/** Reads the prepared file, changes it, adds files, then writes past the home's size; prints what happened. */
const STEP = [
  'import errno, os, sys',
  'home = sys.argv[1]',
  "print('seed', open(os.path.join(home, '.config', 'cli', 'settings.json')).read())",
  "print('owner', os.stat(home + '/.config/cli/settings.json').st_uid == os.getuid())",
  "open(os.path.join(home, '.config', 'cli', 'settings.json'), 'w').write('changed by the step')",
  "open(os.path.join(home, 'session.log'), 'w').write('sk-the-key-written-down')",
  'try:',
  "    with open(os.path.join(home, 'big.bin'), 'wb') as f:",
  `        for _ in range(${HOME_MB * 2}): f.write(b'x' * 2**20)`,
  "    print('filled no')",
  'except OSError as e:',
  "    print('filled', errno.errorcode.get(e.errno))",
].join('\n');

let tmp: string;

async function prepareHome(name: string): Promise<string> {
  const home = path.join(tmp, name, 'agent-home', 'programmer');
  await fs.mkdir(path.join(home, '.config', 'cli'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(home, '.config', 'cli', 'settings.json'), '{"endpoint":"prepared"}', { mode: 0o600 });
  return home;
}

async function runStep(runtime: Runtime, home: string, python: string): Promise<string[]> {
  const work = path.join(path.dirname(path.dirname(home)), 'app');
  await fs.mkdir(work, { recursive: true });
  const mounts = [
    { source: work, target: '/app' },
    { source: home, target: '/sweci/home', scratch: true },
  ];
  const seenHome = runtime.pathIn(mounts, home);
  const r = await runtime.run({
    command: python,
    args: ['-c', STEP, seenHome],
    cwd: runtime.pathIn(mounts, work),
    mounts,
    confine: { hide: [] },
    timeoutMs: 60_000,
  });
  assert.equal(r.exitCode, 0, `the step ran: ${r.stderr}`);
  return r.stdout.trim().split('\n');
}

async function assertHostUntouched(home: string): Promise<void> {
  assert.equal(
    await fs.readFile(path.join(home, '.config', 'cli', 'settings.json'), 'utf8'),
    '{"endpoint":"prepared"}',
    'the prepared file is as the harness wrote it',
  );
  assert.deepEqual(await fs.readdir(home), ['.config'], 'nothing the step wrote is in the folder on the host');
  assert.deepEqual(await filesHolding(tmp, 'sk-the-key-written-down'), [], 'what the step wrote down is on no file of the host');
  if (harnessIsRoot()) {
    const st = await fs.stat(path.join(home, '.config', 'cli', 'settings.json'));
    assert.equal(st.uid, 0, 'the prepared home is the harness user’s again after the step');
  }
}

describe("a confined agent's private home is a size-limited copy in memory", () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-scratch-home-')));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('in the bubblewrap sandbox: the step reads what was prepared, owns its copy, fills it to the limit, and leaves nothing on the host', async (t) => {
    const bwrap = await findBubblewrap();
    if (!bwrap) return missingSandbox(t);
    const home = await prepareHome('sandbox');
    const runtime = new LocalRuntime({ bwrap, limits: { ...DEFAULT_STEP_LIMITS, tmpMb: HOME_MB } });
    const said = await runStep(runtime, home, PYTHON);
    assert.deepEqual(said, ['seed {"endpoint":"prepared"}', 'owner True', 'filled ENOSPC'], said.join('\n'));
    await assertHostUntouched(home);
  });

  for (const engine of ENGINES)
    test(`in a container (${engine}): the same`, async () => {
      const podman = engine === 'podman' ? await podmanForTests() : undefined;
      const conn = podman?.connection ?? (await dockerForTests());
      const home = await prepareHome(engine);
      const runtime = new DockerRuntime({
        connection: conn,
        image: DEMO_IMAGE,
        purpose: 'test',
        limits: { ...DEFAULT_STEP_LIMITS, tmpMb: HOME_MB },
        prestart: false,
      });
      try {
        const said = await runStep(runtime, home, 'python');
        assert.deepEqual(said, ['seed {"endpoint":"prepared"}', 'owner True', 'filled ENOSPC'], said.join('\n'));
      } finally {
        await runtime.dispose();
        await podman?.release();
      }
      await assertHostUntouched(home);
    });

  test('a plain local process (no confinement) uses the folder itself', async () => {
    const home = await prepareHome('plain');
    const runtime = new LocalRuntime({ limits: { ...DEFAULT_STEP_LIMITS, tmpMb: HOME_MB } });
    const said = await runStep(runtime, home, PYTHON);
    assert.equal(said[0], 'seed {"endpoint":"prepared"}');
    assert.equal(await fs.readFile(path.join(home, 'session.log'), 'utf8'), 'sk-the-key-written-down', 'unconfined, the home is the folder on disk');
  });
});
