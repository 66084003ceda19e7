// `sweci checkout` and `sweci test` in a task image (Docker), as a user runs them. A file of its
// own: it uses the shared engine's demo image, so it runs in the unit tier's serial lane, and
// the rest of the CLI's checks (cli.test.ts) run in the pool.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestRepo } from '../task/git-fixture';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';
import { libRepo, sweciWithCache } from './cli-fixture';

let tmp: string;
let repo: TestRepo;
const sweci = (...args: string[]) => sweciWithCache(tmp, ...args);

describe('sweci CLI in a task image (real engine)', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-cli-docker-')));
    repo = await libRepo(path.join(tmp, 'lib'));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('checkout --runtime docker --image runs in the image; test reuses the recorded runtime; --runtime local overrides', async () => {
    await dockerForTests();
    const into = path.join(tmp, 'task-docker');
    const co = sweci('checkout', '--repo', repo.dir, '--base', 'HEAD~1', '--target', 'HEAD', '--into', into, '--runtime', 'docker', '--image', DEMO_IMAGE);
    assert.equal(co.code, 0, co.err);
    assert.match(co.err, new RegExp(`runtime: docker · ${DEMO_IMAGE}`));
    assert.match(co.out, /pytest ran: gap 1/);
    const recorded = JSON.parse(await fs.readFile(path.join(into, '.sweci', 'environment.json'), 'utf8')) as { runtime: string; image: string };
    assert.deepEqual([recorded.runtime, recorded.image], ['docker', DEMO_IMAGE]);
    const again = sweci('test', into);
    assert.equal(again.code, 0, again.err);
    assert.match(again.err, /runtime: docker/);
    assert.match(again.out, /gap 1/);
    const onHost = sweci('test', into, '--runtime', 'local', '--format', 'junit');
    assert.equal(onHost.code, 0, onHost.err);
    assert.match(onHost.err, /runtime: local/);
    const bad = sweci('test', into, '--max-memory-mb', 'lots');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /^error: --max-memory-mb must be a number of MiB/m);
    // The container limit that --max-memory-mb replaced is refused, not silently ignored.
    const gone = sweci('test', into, '--memory-mb', '512');
    assert.equal(gone.code, 1);
    assert.match(gone.err, /^error: --memory-mb is no longer read: containers and sandboxed steps share --max-memory-mb/m);
    const noEngine = sweci('test', into, '--socket', path.join(tmp, 'none.sock'));
    assert.equal(noEngine.code, 1);
    assert.match(noEngine.err, /^error: The Docker engine at .*none\.sock did not answer.*Start Docker/m);
  });
});
