// `sweci curate`'s environment, filter and pack stages on the real engine, real pip, real
// pytest: a repository built by code, a wheel folder built by code, a base image the set-up built
// (no registry, no index). A module the tests import but the configuration does not declare is
// repaired and recorded; a dependency no index has drops its candidate with pip's words;
// candidates with the same environment share its image, and a shared image that misses a module
// one oracle needs goes back for its repair. The filter measures each gap with the
// product's pytest runner and drops what does not launch or gaps too small. End to end, the packed
// dataset runs unchanged: `sweci run --human-history` in Docker, then `sweci summarize`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { createGunzip } from 'node:zlib';
import { readManifest, readRecords } from '../../../src/core/curate/curation-store';
import { scanImageTar } from '../../../src/core/runtime/docker/image-archive';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { experimentLayout } from '../../../src/core/batch/experiment';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { FIXTURE_AGENTS } from '../helpers/scripted-settings';
import type { CurationStatus } from '../../../src/core/curate/funnel';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { curateBaseImage, dockerForTests, removeImagesOf } from '../helpers/docker';
import { writeCurateFixture, type CurateFixture } from './curate-fixture';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('sweci curate: the environment, filter and pack stages', () => {
  let tmp: string;
  let fx: CurateFixture;
  let conn: DockerConnection;
  let base: string;
  const name = `curate-env-${process.pid}-${Date.now().toString(36)}`;
  before(async () => {
    conn = await dockerForTests();
    base = await curateBaseImage(conn);
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-curate-env-')));
    fx = await writeCurateFixture(tmp, name);
  });
  after(async () => {
    await removeImagesOf(conn, `sweci-curate/${name}`);
    await fs.rm(tmp, { recursive: true, force: true });
  });

  let out: string;
  test('repairs a missing module from the wheel folder, drops a broken build with its reason, shares one image per environment', async () => {
    out = path.join(tmp, 'out');
    const thresholds = ['--min-changed-lines', '0', '--min-source-lines', '0'];
    let r = sweci('curate', fx.repo, '--out', out, '--stage', 'mine', ...thresholds);
    assert.equal(r.code, 0, r.err);
    // Two workers: A's environment and B's (which C and D share, in turn after B) build side by side.
    r = sweci('curate', fx.repo, '--out', out, '--stage', 'env', '--base-image', base, '--find-links', fx.wheels, '--workers', '2', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    // curation.json records how the environments were made.
    assert.deepEqual((await readManifest(out))?.stageOptions, { env: { baseImage: base, findLinks: fx.wheels, maxRepairs: 5, workers: 2 } });
    const status = JSON.parse(r.out) as CurationStatus;
    assert.equal(status.funnel.environmentBuilt, 4);
    assert.deepEqual(status.funnel.drops, { env: { build: 1 } });

    const records = await readRecords(out);
    const byOracle = new Map(records.map((c) => [c.oracle, c]));
    const a = byOracle.get(fx.spans.A.oracle);
    assert.equal(a?.outcome, 'dropped');
    assert.equal(a?.stage, 'env');
    assert.equal(a?.stages.env?.code, 'build');
    // pip's decisive lines, not the whole log.
    assert.match(a?.reason ?? '', /^the image did not build: .*ERROR: No matching distribution found for nowhere-dist>=1/);
    assert.doesNotMatch(a?.reason ?? '', /Step 1\//);

    const b = byOracle.get(fx.spans.B.oracle);
    assert.equal(b?.outcome, 'pending');
    assert.equal(b?.stages.env?.outcome, 'passed');
    assert.deepEqual(b?.repairs, [{ module: 'fancymod', distribution: 'fancy-dist', via: 'wheel fancy_dist-1.0-py3-none-any.whl' }]);
    assert.match(b?.stages.env?.reason ?? '', /repaired: fancymod → fancy-dist/);
    assert.match(b?.image ?? '', new RegExp(`^sweci-curate/${name}:[0-9a-f]{16}$`));
    assert.equal(b?.collectIn, undefined);
    // C, D and E change only a docs extra: the same environment, the same image, the same repair;
    // B's collection verified it, so theirs is the filter's oracle run.
    for (const span of [fx.spans.C, fx.spans.D, fx.spans.E]) {
      const c = byOracle.get(span.oracle);
      assert.equal(c?.image, b?.image);
      assert.equal(c?.envKey, b?.envKey);
      assert.deepEqual(c?.repairs, b?.repairs);
      assert.equal(c?.collectIn, 'filter');
      assert.equal(c?.stages.env?.reason, `shared: the image of ${b?.id}; repaired: fancymod → fancy-dist (wheel fancy_dist-1.0-py3-none-any.whl)`);
    }
    // Three environments were written: A's, B's before and after its repair.
    assert.equal((await fs.readdir(path.join(out, 'env'))).length, 3);
    const dockerfile = await fs.readFile(path.join(out, 'env', b?.envKey as string, 'Dockerfile'), 'utf8');
    assert.match(dockerfile, new RegExp(`^FROM ${base.replace(/[/.]/g, '\\$&')}$`, 'm'));
    // A venv on PATH (seeing the base image's packages); pip reads the wheel folder alone.
    assert.match(dockerfile, /venv --system-site-packages \/opt\/sweci-env/);
    assert.match(dockerfile, /^ENV PATH=\/opt\/sweci-env\/bin:\$PATH/m);
    assert.match(dockerfile, /pip install --no-index --find-links \/opt\/sweci-find-links -r/);

    // The repaired image really has the module, in the interpreter the harness runs (`python`).
    const run = spawnSync(
      'docker',
      ['run', '--rm', '--network', 'none', b?.image as string, 'python', '-c', 'import fancymod, pytest; print(fancymod.VALUE)'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(run.stdout.trim(), '42', run.stderr);

    // Again: nothing waits for the stage, nothing is redone.
    const before = await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8');
    r = sweci('curate', fx.repo, '--out', out, '--stage', 'env', '--base-image', base, '--find-links', fx.wheels);
    assert.equal(r.code, 0, r.err);
    assert.equal(await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8'), before);
    r = sweci('curate', '--status', out);
    assert.match(r.out, /environment built\s+4\s+dropped: build 1/);
  });

  test("filter: the oracle's tests on the oracle and the base in the candidate's image; launch failures and small gaps dropped", async () => {
    let r = sweci('curate', fx.repo, '--out', out, '--stage', 'filter', '--workers', '3', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual((await readManifest(out))?.stageOptions?.filter, { minGap: 5, top: 100, workers: 3 });
    const status = JSON.parse(r.out) as CurationStatus;
    assert.equal(status.funnel.baseLaunches, 2);
    assert.equal(status.funnel.gapAtLeastMin, 1);
    assert.deepEqual(status.funnel.drops, { env: { build: 1 }, filter: { 'base-launch': 1, 'min-gap': 1 } });
    const records = await readRecords(out);
    const byOracle = new Map(records.map((c) => [c.oracle, c]));
    const b = byOracle.get(fx.spans.B.oracle);
    // Six new functions' tests fail on the base; test_add and test_fancy pass on both.
    assert.equal(b?.stages.filter?.outcome, 'passed');
    assert.equal(b?.gap, 6);
    assert.equal(b?.oraclePassed, 8);
    assert.equal(b?.basePassed, 2);
    const c = byOracle.get(fx.spans.C.oracle);
    assert.equal(c?.stages.filter?.code, 'min-gap');
    assert.equal(c?.reason, 'the oracle passes 1 test the base does not, fewer than --min-gap 5');
    const d = byOracle.get(fx.spans.D.oracle);
    assert.equal(d?.stages.filter?.code, 'base-launch');
    assert.match(d?.reason ?? '', /^the oracle's tests do not launch on the base: /);
    // E's oracle run in B's image misses othermod: back to the environment stage, which collects
    // its tests and repairs; then the filter runs in the repaired image.
    let e = byOracle.get(fx.spans.E.oracle);
    assert.equal(e?.stage, 'mine');
    assert.equal(e?.outcome, 'pending');
    assert.equal(e?.collectIn, 'env');
    assert.equal(e?.image, undefined);
    assert.equal(e?.stages.filter, undefined);
    assert.match(r.err, new RegExp(`${e?.id} goes back to the environment stage: module othermod missing in the shared image`));
    assert.match(r.err, /1 candidate went back to the environment stage, which collects their tests: run --stage env, then --stage filter\./);
    r = sweci('curate', fx.repo, '--out', out, '--stage', 'env', '--base-image', base, '--find-links', fx.wheels);
    assert.equal(r.code, 0, r.err);
    e = (await readRecords(out)).find((c) => c.oracle === fx.spans.E.oracle);
    assert.equal(e?.stage, 'env');
    assert.equal(e?.collectIn, undefined);
    assert.equal(e?.envKey, b?.envKey);
    assert.deepEqual(
      e?.repairs?.map((x) => [x.module, x.distribution]),
      [
        ['fancymod', 'fancy-dist'],
        ['othermod', 'other-dist'],
      ],
    );
    assert.notEqual(e?.image, b?.image);
    r = sweci('curate', fx.repo, '--out', out, '--stage', 'filter', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual((JSON.parse(r.out) as CurationStatus).funnel.drops, { env: { build: 1 }, filter: { 'base-launch': 1, 'min-gap': 2 } });
    e = (await readRecords(out)).find((c) => c.oracle === fx.spans.E.oracle);
    assert.equal(e?.stages.filter?.code, 'min-gap');
    assert.equal(e?.gap, 1);
    // Finished: running the stage again changes nothing.
    const before = await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8');
    r = sweci('curate', fx.repo, '--out', out, '--stage', 'filter');
    assert.equal(r.code, 0, r.err);
    assert.equal(await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8'), before);
  });

  test("pack: the published dataset's layout, which the product's loader reads unchanged", async () => {
    const r = sweci('curate', fx.repo, '--out', out, '--stage', 'pack', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    assert.equal((JSON.parse(r.out) as CurationStatus).funnel.kept, 1);
    assert.deepEqual((await readManifest(out))?.stageOptions?.pack, { split: 'default' });
    const b = (await readRecords(out)).find((c) => c.oracle === fx.spans.B.oracle);
    assert.equal(b?.outcome, 'kept');
    assert.equal(b?.stage, 'pack');
    const csv = await fs.readFile(path.join(out, 'metadata', 'default.csv'), 'utf8');
    assert.equal(csv.split('\n')[0], 'task_id,repo,current_sha,target_sha,current_date,target_date,test_gap');
    const tasks = await readDatasetTasks(out, 'default');
    assert.equal(tasks.length, 1);
    const [task] = tasks;
    assert.equal(task.id, b?.taskId);
    assert.equal(task.id, `${name}__${b?.id}`);
    assert.equal(task.baseSha, fx.spans.B.base);
    assert.equal(task.targetSha, fx.spans.B.oracle);
    assert.equal(task.expectedGap, 6);
    assert.equal(task.repo, name);
    assert.ok(task.source.kind === 'dataset' && task.source.imagePath);
    // image.tar.gz is a gzipped docker save of the candidate's image, named by its tag.
    const scan = scanImageTar(task.source.imagePath);
    await pipeline(createReadStream(task.source.imagePath), createGunzip(), scan.input);
    const archive = await scan.info;
    assert.equal(archive.reference, b?.image);
    // code.zip holds the repository with both commits.
    const unpacked = path.join(tmp, 'unpacked');
    const unzip = spawnSync('python3', ['-m', 'zipfile', '-e', task.source.zipPath, unpacked], { encoding: 'utf8' });
    assert.equal(unzip.status, 0, unzip.stderr);
    const repoDir = path.join(unpacked, name);
    for (const sha of [task.baseSha, task.targetSha]) {
      const cat = spawnSync('git', ['-C', repoDir, 'cat-file', '-t', sha], { encoding: 'utf8' });
      assert.equal(cat.stdout.trim(), 'commit', cat.stderr);
    }
    // The packed task checks out in Docker (its image.tar.gz loaded) with the gap the filter measured.
    const into = path.join(tmp, 'task');
    const co = sweci('checkout', '--dataset', out, '--task', task.id, '--into', into, '--runtime', 'docker', '--oracle', path.join(tmp, 'oracle'));
    assert.equal(co.code, 0, co.err + co.out);
    assert.match(co.out, /pytest ran: gap 6/);
    assert.doesNotMatch(co.err, /expects a gap/);

    // Packing again redoes nothing.
    const before = await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8');
    assert.equal(sweci('curate', fx.repo, '--out', out, '--stage', 'pack').code, 0);
    assert.equal(await fs.readFile(path.join(out, 'curation.jsonl'), 'utf8'), before);
  });

  test('end to end: the packed dataset runs unchanged, sweci run --human-history in Docker, then sweci summarize', async () => {
    // The scripted Architect (reads the non-passed summary) and a Programmer that changes
    // nothing, run on this machine in the sandbox; pytest runs in the task's image.
    const settings = path.join(tmp, 'run-settings.json');
    await fs.writeFile(
      settings,
      JSON.stringify({
        'sweci.architect.agent': 'custom',
        'sweci.architect.customCommand': `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'architect.py'))}`,
        'sweci.programmer.agent': 'custom',
        'sweci.programmer.customCommand': `python3 ${JSON.stringify(path.join(FIXTURE_AGENTS, 'no-output.py'))}`,
        // The scripts import sweci_fixture beside them: the sandbox shows that folder only when told.
        'sweci.sandboxReadablePaths': [FIXTURE_AGENTS],
      }),
    );
    const experiment = path.join(tmp, 'experiment');
    const [task] = await readDatasetTasks(out, 'default');
    const r = sweci(
      'run',
      '--dataset',
      out,
      '--experiment',
      experiment,
      '--config',
      settings,
      '--runtime',
      'docker',
      '--human-history',
      '--max-iterations',
      '1',
    );
    assert.equal(r.code, 0, r.err + r.out);
    // The loop starts from the gap the filter measured.
    assert.match(r.out, new RegExp(`${task.id} · max-iterations · iteration 1 · a\\(c\\) 0\\.000 · gap 6`));
    assert.match(r.out, /finished: 1 max-iterations/);

    const text = sweci('summarize', experiment);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /run human-history \(the upstream developers\)/);
    type Groups = { groups: { run: string; kind: string; rows: { task: string; metrics: { iterations: number; solved: boolean; finalA: number } }[] }[] };
    const summary = JSON.parse(sweci('summarize', experiment, '--format', 'json', '--max-epoch', '2').out) as Groups;
    assert.deepEqual(
      summary.groups.map((g) => [g.run, g.kind, g.rows.map((row) => row.task)]),
      [
        ['custom', 'agent', [task.id]],
        ['human-history', 'human-history', [task.id]],
      ],
    );
    // The upstream developers' two commits after the base reach the oracle: every gap test passes.
    const developers = summary.groups[1].rows[0].metrics;
    assert.equal(developers.iterations, 2);
    assert.equal(developers.solved, true);
    assert.equal(developers.finalA, 1);
    // Both runs measured the base with the gap the filter measured, in the curated image.
    for (const run of ['custom', 'human-history']) {
      const records = await readIterationRecords(experimentLayout(experiment).task(task.id).run(run).iterationsFile);
      assert.equal(records[0].gap, 6, run);
    }
  });

  test('ranking: by time span then commits, --top kept, the rest dropped with their rank; another --top re-ranks', async () => {
    const ranked = path.join(tmp, 'ranked');
    const args = ['--base-image', base, '--find-links', fx.wheels, '--min-changed-lines', '0', '--min-source-lines', '0', '--min-gap', '1'];
    let r = sweci('curate', fx.repo, '--out', ranked, '--stage', 'mine', ...args);
    assert.equal(r.code, 0, r.err);
    r = sweci('curate', fx.repo, '--out', ranked, '--stage', 'env', ...args);
    assert.equal(r.code, 0, r.err);
    // The built images are the first curation's, found by their tags: only A's failed build is tried again.
    assert.equal(r.err.match(/^building sweci-curate/gm)?.length, 1);
    assert.match(r.err, /is built already: shared/);
    r = sweci('curate', fx.repo, '--out', ranked, '--stage', 'filter', ...args, '--top', '1');
    assert.equal(r.code, 0, r.err);
    let records = await readRecords(ranked);
    const of = (span: { oracle: string }) => records.find((c) => c.oracle === span.oracle);
    assert.equal(of(fx.spans.B)?.stages.filter?.outcome, 'passed'); // 2 days
    assert.equal(of(fx.spans.C)?.stages.filter?.code, 'top'); // 1 day
    assert.equal(of(fx.spans.C)?.reason, 'ranked 2 of 2 by time span and commits; --top 1 keeps 1');
    assert.equal(of(fx.spans.C)?.gap, 1);
    assert.deepEqual((await readManifest(ranked))?.stageOptions?.filter, { minGap: 1, top: 1, workers: 1 });
    r = sweci('curate', fx.repo, '--out', ranked, '--stage', 'filter', ...args, '--top', '2');
    assert.equal(r.code, 0, r.err);
    // Only re-ranked: the record says the new --top, and still the --min-gap the tests ran with.
    assert.deepEqual((await readManifest(ranked))?.stageOptions?.filter, { minGap: 1, top: 2, workers: 1 });
    records = await readRecords(ranked);
    assert.equal(of(fx.spans.C)?.stages.filter?.outcome, 'passed');
    assert.equal(of(fx.spans.C)?.outcome, 'pending');
  });

  test('no engine: the env stage refuses with the fix, mining still works', async () => {
    const out = path.join(tmp, 'no-engine');
    const r = sweci('curate', fx.repo, '--out', out, '--min-changed-lines', '0', '--min-source-lines', '0', '--socket', path.join(tmp, 'nothing.sock'));
    assert.equal(r.code, 1);
    assert.match(r.err, /no engine answered\. Start Docker \(or give --socket\), then run again: the mined candidates wait/);
    assert.equal((await readRecords(out)).filter((c) => c.outcome === 'pending').length, 5);
  });
});
