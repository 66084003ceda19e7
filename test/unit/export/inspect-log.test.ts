// `sweci export inspect` on an experiment a user made (issue 49): `sweci run` with agents that
// call their model through the gateway (a real tool loop) and the developers' replay
// (--human-history), exported as a user runs it (a real process). The .eval files are read with
// Python's zipfile, a reader that is not ours: the members Inspect's recorder writes, deflated,
// and in them our values — the scores `sweci summarize` prints, the calls the gateway recorded,
// the usage with its cache reads. Then the bad inputs: nothing is written for them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readGatewayCalls } from '../../../src/core/records/gateway-call';
import { HUMAN_HISTORY_RUN } from '../../../src/core/loop/run-name';
import type {
  InspectLogHeader,
  InspectLogOverview,
  InspectSample,
  InspectSampleSummary,
  InspectReduction,
} from '../../../src/core/export/inspect-log/inspect-log-types';
import type { ExperimentSummary } from '../../../src/core/batch/experiment-summary';
import { INSPECT_MODEL, INSPECT_RUN, INSPECT_TASKS, buildInspectExperiment, runCli } from '../helpers/inspect-experiment';

interface ZipRead {
  members: Array<{ name: string; compress_type: number }>;
  json: Record<string, unknown>;
}

/** The zip as Python's zipfile reads it: its members in order, how each is compressed, each parsed as JSON. */
function readZip(file: string): ZipRead {
  const script = [
    'import json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    'print(json.dumps({"members": [{"name": i.filename, "compress_type": i.compress_type} for i in z.infolist()],',
    '  "json": {i.filename: json.loads(z.read(i.filename)) for i in z.infolist()}}))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as ZipRead;
}

let tmp: string;
let experiment: string;
let out: string;
let exported: { code: number | null; out: string; err: string };

const evalFile = (run: string) => path.join(out, `exp_${run}.eval`);

describe('sweci export inspect', { timeout: 15 * 60_000 }, () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-inspect-log-')));
    ({ experiment } = await buildInspectExperiment(tmp));
    out = path.join(tmp, 'inspect-logs');
    exported = await runCli(tmp, ['export', 'inspect', experiment, '--out', out]);
  });
  after(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  test('one .eval per finished run and the listing, nothing else (no temp file left)', async () => {
    assert.equal(exported.code, 0, exported.err);
    assert.deepEqual((await fs.readdir(out)).sort(), [`exp_${HUMAN_HISTORY_RUN}.eval`, `exp_${INSPECT_RUN}.eval`, 'listing.json'].sort());
    assert.match(exported.out, new RegExp(`exp_${INSPECT_RUN}\\.eval {2}\\(run ${INSPECT_RUN}, 2 tasks\\)`));
  });

  test("the zip holds Inspect's members, each deflated: the journal's start first, the header last", () => {
    const zip = readZip(evalFile(INSPECT_RUN));
    const names = zip.members.map((m) => m.name);
    assert.deepEqual(names, [
      '_journal/start.json',
      ...INSPECT_TASKS.map((t) => `samples/${t}_epoch_1.json`),
      'summaries.json',
      'reductions.json',
      'header.json',
    ]);
    for (const m of zip.members) assert.equal(m.compress_type, 8, `${m.name} is deflated (8), not ${m.compress_type}`);
  });

  test('the eval: the task set, the agents as the model and its roles, the settings as the config, and results from the summary', async () => {
    const header = readZip(evalFile(INSPECT_RUN)).json['header.json'] as InspectLogHeader;
    assert.equal(header.version, 2);
    assert.equal(header.status, 'success');
    assert.equal(header.eval.task, 'swe-ci/dataset');
    assert.equal(header.eval.model, INSPECT_MODEL);
    assert.equal(header.eval.model_roles.architect.model, INSPECT_MODEL);
    assert.equal(header.eval.model_roles.programmer.model, INSPECT_MODEL);
    assert.deepEqual(header.eval.dataset.sample_ids, INSPECT_TASKS);
    assert.equal(header.eval.config.epochs, 1);
    assert.equal(header.eval.config.max_iterations, 2);
    assert.equal(header.eval.config.run, INSPECT_RUN);
    assert.equal(header.eval.config.gamma, 1);
    assert.deepEqual(
      header.results.scores.map((s) => s.name),
      ['evoscore', 'final_a', 'solved', 'zero_regression'],
    );
    const listing = JSON.parse(await fs.readFile(path.join(out, 'listing.json'), 'utf8')) as Record<string, InspectLogOverview>;
    assert.deepEqual(
      listing[`exp_${INSPECT_RUN}.eval`],
      {
        eval_id: header.eval.eval_id,
        run_id: header.eval.run_id,
        task: header.eval.task,
        task_id: header.eval.task_id,
        task_version: 0,
        version: 2,
        status: 'success',
        invalidated: false,
        model: INSPECT_MODEL,
        model_roles: { architect: INSPECT_MODEL, programmer: INSPECT_MODEL },
        started_at: header.stats.started_at,
        completed_at: header.stats.completed_at,
        primary_metric: header.results.scores[0].metrics.mean,
      },
      "listing.json holds each log's overview, EvoScore its primary metric",
    );

    const summary = await runCli(tmp, ['summarize', experiment, '--run', INSPECT_RUN, '--format', 'json']);
    assert.equal(summary.code, 0, summary.err);
    const group = (JSON.parse(summary.out) as ExperimentSummary).groups[0];
    const metric = (name: string, key: string) => header.results.scores.find((s) => s.name === name)?.metrics[key]?.value;
    assert.equal(metric('evoscore', 'mean'), group.average.evoScore);
    assert.equal(metric('solved', 'accuracy'), group.average.solved);
    assert.equal(metric('zero_regression', 'accuracy'), group.average.zeroRegression);

    // Each sample's scores are the summary's row for its task.
    const zip = readZip(evalFile(INSPECT_RUN));
    for (const row of group.rows) {
      const sample = zip.json[`samples/${row.task}_epoch_1.json`] as InspectSample;
      assert.equal(sample.scores.evoscore?.value, row.metrics.evoScore, row.task);
      assert.equal(sample.scores.final_a?.value, row.metrics.finalA, row.task);
      assert.equal(sample.scores.solved?.value, row.metrics.solved, row.task);
      assert.equal(sample.scores.zero_regression?.value, row.metrics.zeroRegression, row.task);
      const perIteration = sample.scores.final_a?.metadata?.a_by_iteration as unknown[];
      assert.equal(perIteration.length, 2, 'a(c) of each of the two iterations');
      const summaries = zip.json['summaries.json'] as InspectSampleSummary[];
      assert.deepEqual(summaries.find((s) => s.id === row.task)?.scores, sample.scores);
    }
    const reductions = zip.json['reductions.json'] as InspectReduction[];
    assert.deepEqual(
      reductions.map((r) => [r.scorer, r.samples.map((s) => s.sample_id)]),
      ['evoscore', 'final_a', 'solved', 'zero_regression'].map((s) => [s, INSPECT_TASKS]),
    );
  });

  test("a sample's conversation: every call the gateway recorded as a model event, the tool calls and their results as messages", async () => {
    const zip = readZip(evalFile(INSPECT_RUN));
    const task = INSPECT_TASKS[0];
    const sample = zip.json[`samples/${task}_epoch_1.json`] as InspectSample;
    const runDir = path.join(experiment, task, '.sweci', 'runs', INSPECT_RUN);
    let recorded = 0;
    for (const iter of ['iter-001', 'iter-002'])
      for (const name of await fs.readdir(path.join(runDir, iter)))
        if (name.endsWith('.calls.jsonl')) recorded += (await readGatewayCalls(path.join(runDir, iter, name))).length;
    assert.ok(recorded >= 6, `both roles called their model in both iterations (${recorded} calls)`);
    const models = sample.events.filter((e) => e.event === 'model');
    assert.equal(models.length, recorded, 'one model event per recorded call');
    for (const e of models) {
      assert.equal(e.model, INSPECT_MODEL);
      assert.deepEqual(e.output.usage, { input_tokens: 600, output_tokens: 60, total_tokens: 1060, input_tokens_cache_read: 400 });
    }
    const spans = sample.events.filter((e) => e.event === 'span_begin').map((e) => e.name);
    assert.deepEqual(spans.slice(0, 3), ['iteration 1', 'architect try 1', 'programmer try 1']);

    const bash = sample.messages
      .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
      .find((c) => c.function === 'bash' && /6 \* 7/.test(String(c.arguments.command)));
    assert.ok(bash, "the Programmer's command is a tool call with its arguments");
    const result = sample.messages.find((m) => m.role === 'tool' && m.tool_call_id === bash.id);
    assert.ok(result && typeof result.content === 'string' && result.content.trim() === '42', `its result answers it: ${JSON.stringify(result)}`);
    assert.ok(
      sample.messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes('# Role: Architect')),
      "the Architect's prompt is a user message",
    );

    // Per model and per role, cache reads apart (Inspect's input_tokens are those at full rate).
    const header = zip.json['header.json'] as InspectLogHeader;
    assert.deepEqual(header.stats.model_usage[INSPECT_MODEL], {
      input_tokens: 600 * recorded * INSPECT_TASKS.length,
      output_tokens: 60 * recorded * INSPECT_TASKS.length,
      total_tokens: 1060 * recorded * INSPECT_TASKS.length,
      input_tokens_cache_read: 400 * recorded * INSPECT_TASKS.length,
    });
    const roles = header.stats.role_usage;
    assert.equal((roles.architect?.input_tokens_cache_read ?? 0) + (roles.programmer?.input_tokens_cache_read ?? 0), 400 * recorded * INSPECT_TASKS.length);
  });

  test("the developers' replay: its own log, scored alike, with no conversation", () => {
    const zip = readZip(evalFile(HUMAN_HISTORY_RUN));
    const header = zip.json['header.json'] as InspectLogHeader;
    assert.equal(header.eval.config.run_kind, 'human-history');
    for (const task of INSPECT_TASKS) {
      const sample = zip.json[`samples/${task}_epoch_1.json`] as InspectSample;
      assert.deepEqual(sample.messages, []);
      assert.equal(typeof sample.scores.solved?.value, 'boolean');
      assert.ok(
        sample.events.some((e) => e.event === 'info' && e.source === 'pytest'),
        'each replayed commit says what pytest found',
      );
    }
  });

  test('an unknown run: a clear error that names the runs, and nothing written', async () => {
    const dir = path.join(tmp, 'unknown-run');
    const r = await runCli(tmp, ['export', 'inspect', experiment, '--run', 'nope', '--out', dir]);
    assert.equal(r.code, 1);
    assert.match(r.err, new RegExp(`has no run named "nope"; its runs: ${INSPECT_RUN}, ${HUMAN_HISTORY_RUN}\\. Give one of them with --run`));
    await assert.rejects(fs.access(dir), 'no folder made');
  });

  test('an experiment with no finished run: a clear error that says to run it, and nothing written', async () => {
    const empty = path.join(tmp, 'empty-exp');
    await fs.mkdir(empty);
    await fs.copyFile(path.join(experiment, 'sweci-experiment.json'), path.join(empty, 'sweci-experiment.json'));
    const dir = path.join(tmp, 'no-run');
    const r = await runCli(tmp, ['export', 'inspect', empty, '--out', dir]);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /has no finished run to export \(no task has a run yet\)\. Run the experiment first \(sweci run --experiment .*\), then export it\. Nothing was written\./,
    );
    await assert.rejects(fs.access(dir), 'no folder made');
    const notOne = await runCli(tmp, ['export', 'inspect', tmp, '--out', dir]);
    assert.equal(notOne.code, 1);
    assert.match(notOne.err, /is not an experiment: it has no sweci-experiment\.json/);
  });

  test('--run exports that run alone, and the listing keeps the logs already in the folder', async () => {
    const r = await runCli(tmp, ['export', 'inspect', experiment, '--run', INSPECT_RUN, '--out', out]);
    assert.equal(r.code, 0, r.err);
    const listing = JSON.parse(await fs.readFile(path.join(out, 'listing.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(listing).sort(), [`exp_${HUMAN_HISTORY_RUN}.eval`, `exp_${INSPECT_RUN}.eval`].sort());
  });
});
