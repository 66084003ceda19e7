// `sweci leaderboard` as a user runs it, on real experiments: the demo batch dataset's two
// smallest tasks, two iterations, run by `sweci run` with the scripted agents (and the upstream
// developers' replay) and with a Programmer that changes nothing. Each entry's EvoScore at every
// γ must equal `sweci summarize --gamma … --format json` on the same experiment, exactly; every
// bad input is refused with a clear error and nothing written.
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LeaderboardRecord } from '../../../src/shared/leaderboard-record';
import { leaderboardRecordSchema } from '../../../src/shared/leaderboard-record';
import { leaderboardCandidates } from '../../../src/core/leaderboard/leaderboard-candidates';
import { EXPERIMENT_CACHE_FILE } from '../../../src/core/scoring/experiment-summary-cache';
import { SUMMARY_CACHE_FILE } from '../../../src/core/scoring/run-summary-cache';
import { batchFixture, type BatchFixture } from '../cli/batch-fixture';
import { buildLeaderboardExperiments } from '../cli/demo-experiments';

const TASKS = ['demo__tinyinventory-0002', 'demo__tinyinventory-0003'];

let fixture: BatchFixture;
let scripted: string;
let nothing: string;

function leaderboard(...args: string[]): LeaderboardRecord {
  const r = fixture.sweci('leaderboard', ...args, '--format', 'json');
  assert.equal(r.code, 0, r.err + r.out);
  return leaderboardRecordSchema.parse(JSON.parse(r.out));
}

/** Refused with exit 1 and an error that matches `message`, printing nothing on stdout. */
function refused(message: RegExp, ...args: string[]): void {
  const r = fixture.sweci('leaderboard', ...args);
  assert.equal(r.code, 1, `refused: ${args.join(' ')}\n${r.out}`);
  assert.equal(r.out, '');
  assert.match(r.err, /^error: /);
  assert.match(r.err, message);
}

/** A copy of an experiment whose record `edit` changes (another N, another dataset), without `drop`'s task folders. */
async function copyOf(dir: string, name: string, edit: (record: Record<string, unknown>) => void = () => undefined, drop: string[] = []): Promise<string> {
  const out = path.join(fixture.tmp, name);
  await fs.cp(dir, out, { recursive: true });
  for (const t of drop) await fs.rm(path.join(out, t), { recursive: true });
  const file = path.join(out, 'sweci-experiment.json');
  const record = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  edit(record);
  await fs.writeFile(file, JSON.stringify(record));
  return out;
}

/** Every file of the experiments (their git objects aside) with its size and time: what a refused command must leave as it was. */
/**
 * Every file with its size and mtime, every folder by name. The leaderboard writes no record; the
 * one thing reading may leave is a summary cache, a run's (scoring/run-summary-cache.ts: a copy of
 * what the records say, keyed by them), listed apart so a test can tell it from a write, or an
 * experiment's (scoring/experiment-summary-cache.ts: the runs' caches in one file).
 */
async function snapshot(): Promise<string> {
  const entries = (await fs.readdir(fixture.tmp, { recursive: true, withFileTypes: true })).filter(
    (e) =>
      !e.parentPath.includes(`${path.sep}.git`) &&
      !e.parentPath.startsWith(fixture.demo.datasetDir) &&
      e.name !== SUMMARY_CACHE_FILE &&
      e.name !== EXPERIMENT_CACHE_FILE,
  );
  const lines = await Promise.all(
    entries.map(async (e) => {
      const p = path.join(e.parentPath, e.name);
      const s = await fs.lstat(p);
      // A folder's mtime moves when a cache is written into it (a temp file renamed); its entries are listed anyway.
      return s.isDirectory() ? `${p}/` : `${p} ${s.size} ${s.mtimeMs}`;
    }),
  );
  return lines.sort().join('\n');
}

/** The summary caches under the fixture, each in a run's folder beside its run.json. */
async function summaryCaches(): Promise<string[]> {
  const entries = await fs.readdir(fixture.tmp, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.name === SUMMARY_CACHE_FILE).map((e) => path.join(e.parentPath, e.name));
}

describe('sweci leaderboard on real experiments', () => {
  before(async () => {
    fixture = await batchFixture();
    ({ scripted, nothing } = await buildLeaderboardExperiments(fixture, { tasks: TASKS, iterations: 2 }));
  });
  after(() => fixture?.dispose());

  test("each entry's EvoScore at every γ is summarize's, to the last digit; the output is reproducible byte for byte", () => {
    const gammas = ['0.8', '0.9', '1', '1.1', '1.2', '1.25'];
    const args = [scripted, nothing, `${scripted}#human-history`, '--gamma', gammas.join(','), '--bootstrap', '500', '--format', 'json'];
    const first = fixture.sweci('leaderboard', ...args);
    assert.equal(first.code, 0, first.err);
    const record = leaderboardRecordSchema.parse(JSON.parse(first.out));
    assert.deepEqual(record.gammas, gammas);
    assert.deepEqual(record.tasks, TASKS);
    assert.equal(record.entries.length, 3);
    for (const e of record.entries) {
      const [{ experiment, run }] = e.experiments;
      const r = fixture.sweci('summarize', experiment, '--run', run, '--gamma', '0.8,0.9,1.1,1.2,1.25', '--format', 'json');
      assert.equal(r.code, 0, r.err);
      const summary = JSON.parse(r.out) as {
        gammas: number[];
        groups: { run: string; averageEvo: number[]; average: { solved: number; zeroRegression: number } }[];
      };
      const group = summary.groups.find((g) => g.run === run)!;
      for (const g of gammas) assert.equal(e.evoScore[g], group.averageEvo[summary.gammas.indexOf(Number(g))], `${e.label} at γ=${g}`);
      assert.equal(e.solvedRate, group.average.solved, `${e.label} solved`);
      assert.equal(e.zeroRegressionRate, group.average.zeroRegression, `${e.label} zero regression`);
      assert.equal(e.tasks, 2);
      assert.deepEqual(e.missing, []);
      // Each task's own score, whose mean is the entry's EvoScore(γ=1).
      assert.deepEqual(Object.keys(e.taskScores).sort(), TASKS);
      const perTask = Object.values(e.taskScores);
      assert.ok(Math.abs(perTask.reduce((a, b) => a + b, 0) / perTask.length - e.evoScore['1']) < 1e-12, `${e.label}: task scores`);
      for (const [lo, hi, v] of [
        [...e.evoScoreCI95, e.evoScore['1']],
        [...e.solvedCI95, e.solvedRate],
        [...e.zeroRegressionCI95, e.zeroRegressionRate],
      ])
        assert.ok(lo <= v + 1e-12 && v <= hi + 1e-12, `${e.label}: ${lo} ≤ ${v} ≤ ${hi}`);
    }
    // The scripted agents replay the upstream commits: above the Programmer that changes nothing, and distinguishable from it.
    // Both experiments ran custom agents: the default labels are told apart by the folder, not merged as repeats.
    assert.deepEqual(record.entries.map((e) => e.label).sort(), ['custom · exp-nothing', 'custom · exp-scripted', 'human-history']);
    const byExperiment = (dir: string, run: string) => record.entries.find((e) => e.experiments[0].experiment === dir && e.experiments[0].run === run)!;
    const top = byExperiment(scripted, 'scripted');
    const idle = byExperiment(nothing, 'nothing');
    assert.ok(top.evoScore['1'] > idle.evoScore['1']);
    assert.equal(idle.evoScore['1'], 0, 'no change: a(c) stays 0');
    const pair = record.pairs.find((p) => p.a === top.label && p.b === idle.label)!;
    assert.equal(pair.distinguishable, true);
    assert.ok(pair.ci95[0] <= pair.meanDiff && pair.meanDiff <= pair.ci95[1]);
    assert.equal(byExperiment(scripted, 'human-history').kind, 'human-history');
    assert.equal(record.pairs.length, 3);
    // The demo tasks share one repository: the intervals are points, and the record says why.
    assert.equal(record.bootstrap.repositories, 1);
    assert.ok(
      record.notes.some((n) => /one repository: .*zero width/.test(n)),
      record.notes.join('\n'),
    );
    assert.deepEqual(
      record.ranks['1'].map((r) => r.label),
      record.entries.map((e) => e.label),
    );
    assert.equal(top.tokensPerTask.source, 'agent-reported');
    assert.equal(top.costPerTask, null, 'the scripted agents report no price');

    assert.equal(fixture.sweci('leaderboard', ...args).out, first.out, 'the same bytes again');
    const seeded = fixture.sweci('leaderboard', scripted, nothing, '--bootstrap', '500', '--seed', '5', '--format', 'json');
    assert.equal((JSON.parse(seeded.out) as LeaderboardRecord).bootstrap.seed, 5);
  });

  test('--with-human adds the replay; a leaderboard file names the entries, and a shared label makes repeats', async () => {
    const withHuman = leaderboard(scripted, nothing, '--with-human', '--bootstrap', '100');
    assert.deepEqual(withHuman.entries.map((e) => e.kind).sort(), ['agent', 'agent', 'human-history']);
    assert.equal(withHuman.entries.find((e) => e.kind === 'human-history')!.label, 'human-history');

    const repeat = await copyOf(scripted, 'exp-scripted-again');
    const file = path.join(fixture.tmp, 'leaderboard.json');
    await fs.writeFile(
      file,
      JSON.stringify({
        entries: [
          { experiment: 'exp-scripted', label: 'Scripted', provider: 'Fixtures', released: '2025-01-02' },
          { experiment: 'exp-scripted-again', label: 'Scripted', provider: 'Fixtures' },
          { experiment: 'exp-nothing', label: 'Idle' },
        ],
      }),
    );
    const record = leaderboard('--file', file, '--bootstrap', '100');
    const top = record.entries.find((e) => e.label === 'Scripted')!;
    assert.deepEqual(top.experiments, [
      { experiment: scripted, run: 'scripted' },
      { experiment: repeat, run: 'scripted' },
    ]);
    assert.equal(top.provider, 'Fixtures');
    assert.equal(top.released, '2025-01-02');
    assert.equal(top.spread.betweenRepeats, 0, 'two identical repeats');
    const single = leaderboard(scripted, '--bootstrap', '100');
    assert.equal(top.evoScore['1'], single.entries[0].evoScore['1'], 'the mean of identical repeats');

    // Text formats: the table shows groups and intervals; CSV one row per entry.
    const table = fixture.sweci('leaderboard', '--file', file, '--bootstrap', '100');
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /^group {2}rank {2}entry/m);
    assert.match(table.out, /Scripted .*\[\d\.\d{4}, \d\.\d{4}\]/);
    const csv = fixture.sweci('leaderboard', '--file', file, '--bootstrap', '100', '--format', 'csv');
    assert.equal(csv.out.trim().split('\n').length, 3);
    const md = fixture.sweci('leaderboard', '--file', file, '--bootstrap', '100', '--format', 'markdown');
    assert.match(md.out, /^\| group \| rank \| entry/m);
  });

  test('sweci report --leaderboard writes the page with the JSON and CSV that sweci leaderboard prints; its flags need --leaderboard', async () => {
    const args = [scripted, nothing, '--with-human', '--bootstrap', '200', '--gamma', '0.9,1,1.1'];
    const out = path.join(fixture.tmp, 'report-out');
    const r = fixture.sweci('report', '--leaderboard', ...args, '-o', out);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /wrote .*leaderboard\.html \(3 entries\), leaderboard\.json and leaderboard\.csv/);
    assert.equal(await fs.readFile(path.join(out, 'leaderboard.json'), 'utf8'), fixture.sweci('leaderboard', ...args, '--format', 'json').out);
    assert.equal(await fs.readFile(path.join(out, 'leaderboard.csv'), 'utf8'), fixture.sweci('leaderboard', ...args, '--format', 'csv').out);
    const html = await fs.readFile(path.join(out, 'leaderboard.html'), 'utf8');
    assert.match(html, /id="sweci-leaderboard-data"/);
    assert.match(html, /human-history/);

    // A leaderboard flag without --leaderboard, or several folders for one report, is refused before anything is written.
    const none = path.join(fixture.tmp, 'report-refused');
    for (const [message, more] of [
      [/--bootstrap is a leaderboard option: add --leaderboard/, [scripted, '--bootstrap', '200']],
      [/--with-human is a leaderboard option/, [scripted, '--with-human']],
      [/got 2 folders: give one, or add --leaderboard/, [scripted, nothing]],
      [/--gamma .*"0" is not one/, ['--leaderboard', scripted, '--gamma', '0']],
    ] as const) {
      const refusedReport = fixture.sweci('report', ...more, '-o', none);
      assert.equal(refusedReport.code, 1, refusedReport.out);
      assert.match(refusedReport.err, message);
    }
    await assert.rejects(fs.stat(none), 'no folder was made');
  });

  test("the panel's picker offers the picked experiment, its developers' replay and the experiments beside it", async () => {
    const offered = await leaderboardCandidates([scripted]);
    assert.deepEqual(offered.slice(0, 2), [
      { argument: scripted, experiment: scripted, run: 'scripted', kind: 'agent', picked: true },
      { argument: `${scripted}#human-history`, experiment: scripted, run: 'human-history', kind: 'human-history', picked: true },
    ]);
    // Beside it (the other folders of its parent that are experiments), offered but not ticked; the dataset is not one.
    const beside = offered.slice(2);
    assert.ok(beside.some((c) => c.argument === nothing && c.kind === 'agent'));
    assert.ok(beside.every((c) => !c.picked && c.experiment !== fixture.demo.datasetDir));
    // What it offers ranks as sweci leaderboard ranks the same arguments.
    const record = leaderboard(...offered.slice(0, 2).map((c) => c.argument), '--bootstrap', '100');
    assert.deepEqual(record.entries.map((e) => e.kind).sort(), ['agent', 'human-history']);
  });

  test("sweci report --leaderboard without -o writes into the first experiment's .sweci/reports/", async () => {
    const r = fixture.sweci('report', '--leaderboard', scripted, '--bootstrap', '100');
    assert.equal(r.code, 0, r.err + r.out);
    const reports = path.join(scripted, '.sweci', 'reports');
    const [folder] = await fs.readdir(reports);
    assert.match(folder, /^leaderboard-\d{4}-/);
    assert.ok(r.out.includes(path.join(reports, folder, 'leaderboard.html')), r.out);
    await fs.rm(path.join(scripted, '.sweci'), { recursive: true });
  });

  test('common ranks only the tasks every entry scored and lists the rest; union ranks each on its own and says so', async () => {
    const partial = await copyOf(nothing, 'exp-nothing-partial', () => undefined, [TASKS[0]]);
    const common = leaderboard(scripted, partial, '--bootstrap', '100');
    assert.equal(common.tasksPolicy, 'common');
    assert.deepEqual(common.tasks, [TASKS[1]]);
    const idle = common.entries.find((e) => e.experiments[0].experiment === partial)!;
    assert.deepEqual(idle.missing, [TASKS[0]]);
    assert.equal(common.entries.find((e) => e.experiments[0].experiment === scripted)!.tasks, 1);
    assert.ok(common.notes.some((n) => n.includes(TASKS[0])));

    const union = leaderboard(scripted, partial, '--bootstrap', '100', '--tasks-policy', 'union');
    assert.deepEqual(union.tasks, TASKS);
    assert.equal(union.entries.find((e) => e.experiments[0].experiment === scripted)!.tasks, 2);
    assert.equal(union.entries.find((e) => e.experiments[0].experiment === partial)!.tasks, 1);
    assert.ok(union.notes.some((n) => /union/.test(n)));
  });

  test('every bad input is refused with a clear error, and nothing is written', async () => {
    const otherN = await copyOf(nothing, 'exp-other-n', (r) => (r.maxIterations = 3));
    const otherData = await copyOf(nothing, 'exp-other-dataset', (r) => (r.split = 'other'));
    const onlyFirst = await copyOf(scripted, 'exp-only-first', () => undefined, [TASKS[1]]);
    const onlySecond = await copyOf(nothing, 'exp-only-second', () => undefined, [TASKS[0]]);
    const bad = path.join(fixture.tmp, 'bad-leaderboard.json');
    await fs.writeFile(bad, JSON.stringify({ entries: [{ experiment: 'exp-scripted', released: 'May 2025' }] }));
    const before = await snapshot();

    refused(/given twice/, scripted, scripted);
    refused(/given twice/, scripted, `${scripted}#scripted`);
    refused(/dataset.* is not an experiment: it has no sweci-experiment\.json/, fixture.demo.datasetDir);
    refused(/does not exist/, path.join(fixture.tmp, 'nowhere'));
    refused(/different maximum iterations.*--max-epoch/, scripted, otherN);
    refused(/different datasets or splits.*--tasks-policy union/, scripted, otherData);
    refused(/No task is scored by every entry/, onlyFirst, onlySecond);
    refused(/has no run "nope" \(its tasks have: human-history, scripted\)/, `${scripted}#nope`);
    refused(/bad-leaderboard\.json is not a leaderboard file: entries\.0\.released/, '--file', bad);
    refused(/--gamma .*"0" is not one/, scripted, '--gamma', '0,1');
    refused(/--gamma .*"-1" is not one/, scripted, '--gamma', '-1');
    refused(/--gamma .*"abc" is not one/, scripted, '--gamma', 'abc');
    refused(/--bootstrap 0/, scripted, '--bootstrap', '0');
    refused(/--tasks-policy must be/, scripted, '--tasks-policy', 'all');

    assert.equal(await snapshot(), before, 'nothing changed on disk');
    // Besides the runs' summary caches, each beside the run it summarizes.
    for (const cache of await summaryCaches()) assert.ok(existsSync(path.join(path.dirname(cache), 'run.json')), `${cache} is in a run's folder`);

    // What a flag makes possible: --max-epoch scores both over one N; union ranks different splits.
    assert.equal(leaderboard(scripted, otherN, '--max-epoch', '2', '--bootstrap', '50').maxEpoch, 2);
    const mixed = leaderboard(scripted, otherData, '--tasks-policy', 'union', '--bootstrap', '50');
    assert.ok(mixed.notes.some((n) => /different datasets or splits/.test(n)));
  });
});
