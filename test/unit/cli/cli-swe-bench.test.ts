// sweci export swe-bench and sweci grade as a user runs them: a SWE-Bench-CL sequence of three
// instances (a generated repository, real test patches) run by a scripted agent that resolves
// the first, changes nothing in the second and breaks the third; its run exported as SWE-bench's
// harness files, then those predictions graded again with real pytest, which must agree. Bad
// patches, unknown instances and malformed lines get their rows or their errors.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { InstanceResult, RunSummary } from '../../../src/core/export/swe-bench/harness-files';
import { buildSequenceFixture, type SequenceFixture } from '../helpers/sequence-fixture';

type InstanceReport = Extract<InstanceResult, { kind: 'graded' }>['report'];

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
let tmp: string;
let fixture: SequenceFixture;
let experiment: string;

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache') } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await fs.readFile(file, 'utf8')) as T;
const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false,
  );
const reportOf = async (out: string, model: string, id: string) =>
  (await readJson<Record<string, InstanceReport>>(path.join(out, 'logs', 'run_evaluation', 'sweci', model, id, 'report.json')))[id];
const grade = (predictions: string, out: string, ...more: string[]) =>
  sweci(
    'grade',
    '--predictions',
    predictions,
    '--instances',
    fixture.sequenceFile,
    '--repos',
    fixture.reposDir,
    '--out',
    out,
    '--runtime',
    'local',
    '--format',
    'junit',
    ...more,
  );

describe('SWE-bench files: sweci export swe-bench and sweci grade', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-swebench-export-')));
    fixture = await buildSequenceFixture(tmp);
    experiment = path.join(tmp, 'exp');
    const r = sweci(
      ...['run', '--sequence', fixture.sequenceFile, '--repos', fixture.reposDir, '--experiment', experiment, '--config', fixture.settingsFile],
      ...['--run', 'agent', '--max-iterations', '1', '--runtime', 'local', '--format', 'junit', '--json'],
    );
    assert.equal(r.code, 0, r.err + r.out.slice(-2000));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test("the export is the harness's files; grading its predictions again gives the same resolved", async () => {
    const out = path.join(tmp, 'export');
    const r = sweci('export', 'swe-bench', experiment, '--out', out);
    assert.equal(r.code, 0, r.err);
    const [one, two, three] = fixture.taskIds;

    const lines = (await fs.readFile(path.join(out, 'predictions.jsonl'), 'utf8')).trim().split('\n');
    const predictions = lines.map((l) => JSON.parse(l) as { instance_id: string; model_name_or_path: string; model_patch: string });
    assert.deepEqual(
      predictions.map((p) => [p.instance_id, p.model_name_or_path]),
      fixture.taskIds.map((id) => [id, 'agent']),
    );
    const patch = predictions[0].model_patch;
    assert.match(patch, /^diff --git a\/src\/calc\/ops\.py b\/src\/calc\/ops\.py$/m);
    assert.match(patch, /^\+ {4}return a \* b$/m);
    assert.doesNotMatch(patch, /tests\/test_mul\.py/, "the test patch's files are the harness's to put back, not the model's patch");
    assert.equal(predictions[1].model_patch, '', 'the agent changed nothing in task 2');

    const summary = await readJson<RunSummary>(path.join(out, 'agent.sweci.json'));
    assert.deepEqual(summary, {
      total_instances: 3,
      submitted_instances: 3,
      completed_instances: 2,
      resolved_instances: 1,
      unresolved_instances: 1,
      empty_patch_instances: 1,
      error_instances: 0,
      completed_ids: [one, three],
      incomplete_ids: [],
      empty_patch_ids: [two],
      submitted_ids: [one, two, three],
      resolved_ids: [one],
      unresolved_ids: [three],
      error_ids: [],
      schema_version: 2,
    });
    assert.deepEqual(await reportOf(out, 'agent', one), {
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: true,
      resolved: true,
      tests_status: {
        FAIL_TO_PASS: { success: ['tests/test_mul.py::test_mul'], failure: [] },
        PASS_TO_PASS: { success: [], failure: [] },
        FAIL_TO_FAIL: { success: [], failure: [] },
        PASS_TO_FAIL: { success: [], failure: [] },
      },
    });
    const third = await reportOf(out, 'agent', three);
    assert.equal(third.resolved, false);
    assert.deepEqual(third.tests_status.FAIL_TO_PASS, { success: [], failure: ['tests/test_div.py::test_div'] });
    assert.equal(await exists(path.join(out, 'logs', 'run_evaluation', 'sweci', 'agent', two)), false, 'an empty patch gets no report, as in the harness');
    assert.equal(await fs.readFile(path.join(out, 'logs', 'run_evaluation', 'sweci', 'agent', one, 'patch.diff'), 'utf8'), patch);

    // The other way: the exported predictions graded from the clone alone, with real pytest.
    const graded = path.join(tmp, 'graded');
    const g = grade(path.join(out, 'predictions.jsonl'), graded);
    assert.equal(g.code, 0, g.err + g.out);
    const again = await readJson<RunSummary>(path.join(graded, 'agent.sweci.json'));
    assert.deepEqual(again, summary, 'the same verdicts, instance by instance');
    for (const id of [one, three]) assert.deepEqual(await reportOf(graded, 'agent', id), await reportOf(out, 'agent', id));
    assert.equal(await exists(path.join(graded, 'predictions.jsonl')), false, 'grade does not copy the file it was given');
  });

  test('a patch that does not apply and an unknown instance are error rows; the rest is graded', async () => {
    const [one, two, three] = fixture.taskIds;
    const bad = [
      'diff --git a/src/calc/ops.py b/src/calc/ops.py',
      '--- a/src/calc/ops.py',
      '+++ b/src/calc/ops.py',
      '@@ -1,2 +1,2 @@',
      '-def nothing_like_this():',
      '+def else():',
      '',
    ].join('\n');
    const fix = [
      'diff --git a/src/calc/ops.py b/src/calc/ops.py',
      '--- a/src/calc/ops.py',
      '+++ b/src/calc/ops.py',
      '@@ -5,2 +5,2 @@',
      ' def mul(a, b):',
      '-    return a + b',
      '+    return a * b',
      '',
    ].join('\n');
    const file = path.join(tmp, 'hand-made.jsonl');
    const rows = [
      { instance_id: one, model_name_or_path: 'acme/coder-1', model_patch: fix },
      { instance_id: 'acme__calc-9', model_name_or_path: 'acme/coder-1', model_patch: fix },
      { instance_id: two, model_name_or_path: 'acme/coder-1', model_patch: null },
      { instance_id: three, model_name_or_path: 'acme/coder-1', model_patch: bad },
    ];
    await fs.writeFile(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = path.join(tmp, 'hand-graded');
    const r = grade(file, out);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.err, new RegExp(`error: ${three}: model_patch does not apply on base_commit`));
    assert.match(r.err, /error: acme__calc-9: instance "acme__calc-9" is not in .*sequences\.json/);
    const summary = await readJson<RunSummary>(path.join(out, 'acme__coder-1.sweci.json'));
    assert.deepEqual(
      [summary.error_ids, summary.empty_patch_ids, summary.completed_ids, summary.unresolved_ids, summary.resolved_ids],
      [['acme__calc-3', 'acme__calc-9'], [two], [one], [], [one]],
    );
    assert.equal(summary.submitted_instances, 4);
    const dir = path.join(out, 'logs', 'run_evaluation', 'sweci', 'acme__coder-1');
    assert.match(await fs.readFile(path.join(dir, three, 'run_instance.log'), 'utf8'), /does not apply/);
    assert.equal(await fs.readFile(path.join(dir, three, 'patch.diff'), 'utf8'), bad);
    assert.equal(await exists(path.join(dir, three, 'report.json')), false, 'an error row has no report, as in the harness');
    assert.equal(await exists(path.join(dir, 'acme__calc-9')), false, 'an unknown instance gets no folder');
    assert.equal((await reportOf(out, 'acme__coder-1', one)).resolved, true, "a fix made by hand, graded like the agent's");
  });

  test('bad input: a malformed line (by number), a non-empty --out, an unknown run, a run not finished; nothing is written half', async () => {
    const file = path.join(tmp, 'malformed.jsonl');
    await fs.writeFile(file, `${JSON.stringify({ instance_id: 'a', model_name_or_path: 'm', model_patch: '' })}\n{"instance_id": \n`);
    const out = path.join(tmp, 'never');
    const r = grade(file, out);
    assert.equal(r.code, 1);
    assert.match(r.err, /malformed\.jsonl, line 2 is not JSON/);
    const noModel = path.join(tmp, 'no-model.jsonl');
    await fs.writeFile(noModel, `\n${JSON.stringify({ instance_id: 'a', model_patch: '' })}\n`);
    assert.match(grade(noModel, out).err, /no-model\.jsonl, line 2 \(a\): model_name_or_path is missing/);
    assert.equal(await exists(out), false);

    const full = path.join(tmp, 'full');
    await fs.mkdir(full);
    await fs.writeFile(path.join(full, 'keep.txt'), 'mine');
    const busy = sweci('export', 'swe-bench', experiment, '--out', full);
    assert.equal(busy.code, 1);
    assert.match(busy.err, /is not empty: give a new or empty folder/);
    assert.deepEqual(await fs.readdir(full), ['keep.txt']);

    const unknown = sweci('export', 'swe-bench', experiment, '--run', 'nope', '--out', out);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /has no run "nope" \(its instances have: agent\)/);

    // The same experiment with every run cut back to its base line: nothing finished.
    const cut = path.join(tmp, 'exp-unfinished');
    await fs.cp(experiment, cut, { recursive: true });
    for (const id of fixture.taskIds) {
      const lines = path.join(cut, id, '.sweci', 'runs', 'agent', 'iteration.jsonl');
      await fs.writeFile(lines, (await fs.readFile(lines, 'utf8')).split('\n')[0] + '\n');
    }
    const unfinished = sweci('export', 'swe-bench', cut, '--out', out);
    assert.equal(unfinished.code, 1);
    assert.match(unfinished.err, /has no finished run "agent" \(3 unfinished\)/);
    assert.equal(await exists(out), false);
    assert.deepEqual(
      (await fs.readdir(tmp)).filter((n) => n.includes('.partial-')),
      [],
      'no staging folder is left behind',
    );
  });
});
