// sweci curate --repair-agent on the real engine with the real agent driver: when the rules give
// up (a requirement no index has), a scripted agent — a real program the driver runs, sandboxed
// as a loop step is — edits the Dockerfile, and the environment builds; recorded on the
// candidate. A hostile scripted agent tries to read the repository (the oracle's tests) and the
// curation's records, and to write into both and into the read-only files beside its
// Dockerfile: every attempt fails, and the candidate is dropped with the agent's tries recorded.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readManifest, readRecords } from '../../../src/core/curate/curation-store';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { curateBaseImage, dockerForTests, removeImagesOf } from '../helpers/docker';
import { missingSandbox } from '../helpers/require-sandbox';
import { FIXTURE_AGENTS } from '../helpers/scripted-settings';
import { findTrustedProgram } from '../../../src/core/util/trusted-program';
import { writeCurateFixture, type CurateFixture } from './curate-fixture';

const SANDBOX = process.env.SWECI_TEST_SANDBOX !== 'off' ? findTrustedProgram('bwrap') : undefined;
const cli = path.resolve(__dirname, '../../../src/cli/main.js');

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('sweci curate --repair-agent', () => {
  let tmp: string;
  let fx: CurateFixture;
  let conn: DockerConnection;
  let base: string;
  const name = `curate-agent-${process.pid}-${Date.now().toString(36)}`;
  const thresholds = ['--min-changed-lines', '0', '--min-source-lines', '0'];
  before(async () => {
    conn = await dockerForTests();
    base = await curateBaseImage(conn);
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-agent-')));
    fx = await writeCurateFixture(tmp, name);
  });
  after(async () => {
    await removeImagesOf(conn, `sweci-curate/${name}`);
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const envWith = (out: string, command: string, ...more: string[]) =>
    sweci(
      'curate',
      fx.repo,
      '--out',
      out,
      '--stage',
      'env',
      '--base-image',
      base,
      '--find-links',
      fx.wheels,
      '--repair-agent',
      'custom',
      '--repair-agent-command',
      command,
      '--sandbox-readable',
      FIXTURE_AGENTS,
      ...more,
    );

  test('a scripted agent mends the Dockerfile of a requirement no index has; the repair is recorded', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const out = path.join(tmp, 'out');
    let r = sweci('curate', fx.repo, '--out', out, '--stage', 'mine', ...thresholds);
    assert.equal(r.code, 0, r.err);
    r = envWith(out, `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'repair-requirements.py'))}`, '--agent-repairs', '1');
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /agent repair 1\/1 of [0-9a-f]{16} \(custom/);
    const env = (await readManifest(out))?.stageOptions?.env;
    assert.equal(env?.agentRepairs, 1);
    assert.match(env?.repairAgent ?? '', /^custom/);

    const a = (await readRecords(out)).find((c) => c.oracle === fx.spans.A.oracle);
    assert.equal(a?.outcome, 'pending', `A's environment built after the agent's repair, not: ${a?.reason}`);
    assert.equal(a?.stages.env?.outcome, 'passed');
    assert.match(a?.stages.env?.reason ?? '', /repaired: the Dockerfile by custom.* \(try 1\)/);
    assert.equal(a?.agentRepairs?.length, 1);
    const [repair] = a?.agentRepairs ?? [];
    assert.equal(repair.outcome, 'built');
    assert.equal(repair.image, a?.image);
    assert.match(a?.image ?? '', new RegExp(`^sweci-curate/${name}:[0-9a-f]{16}$`));
    // The agent's own log is kept; it ran sandboxed, in its work folder, on the Dockerfile alone.
    assert.match(await fs.readFile(repair.log as string, 'utf8'), /repair: nowhere-dist is not installed/);
    const dockerfile = await fs.readFile(path.join(out, 'env', (a?.image as string).split(':')[1], 'Dockerfile'), 'utf8');
    assert.match(dockerfile, /grep -v -i '\^nowhere-dist'/);
    assert.match(dockerfile, new RegExp(`^LABEL dev\\.swe-ci\\.curation-key="${(a?.image as string).split(':')[1]}"$`, 'm'));
    // The image really runs the oracle's tests' interpreter with pytest.
    const run = spawnSync('docker', ['run', '--rm', '--network', 'none', a?.image as string, 'python', '-c', 'import pytest; print("ok")'], {
      encoding: 'utf8',
    });
    assert.equal(run.stdout.trim(), 'ok', run.stderr);
  });

  test('a hostile agent reads neither the repository nor the curation, writes nothing outside its Dockerfile, and its tries are recorded', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const out = path.join(tmp, 'out-hostile');
    let r = sweci('curate', fx.repo, '--out', out, '--stage', 'mine', ...thresholds);
    assert.equal(r.code, 0, r.err);
    const recordsBefore = await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8');
    const command = `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'repair-hostile.py'))} ${JSON.stringify(fx.repo)} ${JSON.stringify(out)}`;
    r = envWith(out, command);
    assert.equal(r.code, 0, r.err);

    const a = (await readRecords(out)).find((c) => c.oracle === fx.spans.A.oracle);
    assert.equal(a?.outcome, 'dropped');
    assert.equal(a?.stages.env?.code, 'agent-repair');
    assert.match(
      a?.reason ?? '',
      /No matching distribution found for nowhere-dist.*the agent's 2 repairs did not mend it \(last: the agent left the Dockerfile as it was/,
    );
    assert.deepEqual(
      a?.agentRepairs?.map((x) => [x.try, x.outcome]),
      [
        [1, 'refused'],
        [2, 'refused'],
      ],
    );
    for (const tryRecord of a?.agentRepairs ?? []) {
      const log = await fs.readFile(tryRecord.log as string, 'utf8');
      assert.match(log, /hostile: done/, 'the agent ran to its end');
      const attempts = log.split('\n').filter((l) => l.startsWith('hostile: read ') || l.startsWith('hostile: write '));
      assert.equal(attempts.length, 7, log);
      for (const line of attempts) assert.match(line, /: refused \(/, `the sandbox refused it: ${line}`);
    }
    // Nothing of it reached the repository or the records (the stage's own lines aside).
    assert.equal(spawnSync('git', ['-C', fx.repo, 'status', '--porcelain'], { encoding: 'utf8' }).stdout, '');
    const recordsAfter = await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8');
    assert.doesNotMatch(recordsAfter, /^hostile$/m);
    assert.ok(recordsBefore.length > 0);
  });

  test("the agent's Dockerfile is built with no network: a step that calls the host's loopback reaches nothing", async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    let connections = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const out = path.join(tmp, 'out-phone-home');
      let r = sweci('curate', fx.repo, '--out', out, '--stage', 'mine', ...thresholds);
      assert.equal(r.code, 0, r.err);
      r = envWith(out, `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'repair-phone-home.py'))} ${port}`, '--agent-repairs', '1');
      assert.equal(r.code, 0, r.err);
      const logs = (await fs.readdir(out, { recursive: true })).filter((f) => f.endsWith('build.log'));
      // The build's output, without the colour codes Docker puts around a step's stderr.
      const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
      const texts = await Promise.all(logs.map(async (f) => (await fs.readFile(path.join(out, f), 'utf8')).replace(ansi, '')));
      assert.ok(
        texts.some((l) => /^no network$/m.test(l)),
        `the agent's step ran in the build and reached nothing:\n${texts.map((l) => l.slice(0, 1500)).join('\n---\n')}`,
      );
      assert.ok(!texts.some((l) => /^phoned home$/m.test(l)), 'the step printed that it connected');
      // spawnSync held this process: a connection made meanwhile waits in the backlog until now.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(connections, 0, 'nothing reached the listener');
    } finally {
      server.close();
    }
  });
});
