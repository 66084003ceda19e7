// The experiment's summary cache (src/core/scoring/experiment-summary-cache.ts) on a real
// experiment folder (test/unit/helpers/leaderboard-experiments.ts: one model, 100 tasks, its agent
// run and the developers' replay). Warm, summarize reads it alone (the runs' own caches gone, the
// same summary, none written back); a record edited to the same size with its mtime put back
// changes the score read through it; a forged file (an entry for other bytes, an entry moved to
// another task, a score edited under a kept digest, a right digest on another shape, another
// code's, a link to another experiment's) is refused and written again from the records.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { experimentLayout } from '../../../src/core/batch/experiment';
import { summarizeExperiment, type ExperimentSummary } from '../../../src/core/batch/experiment-summary';
import { EXPERIMENT_CACHE_FILE, type ExperimentSummaryCache } from '../../../src/core/scoring/experiment-summary-cache';
import { SUMMARY_CACHE_FILE } from '../../../src/core/scoring/run-summary-cache';
import { writeLeaderboardExperiments } from '../helpers/leaderboard-experiments';

let tmp: string;
let experiment: string;
let other: string;
let tasks: string[];

const OPTS = { gammas: [0.8, 1.2], maxEpoch: 20, usage: true, repository: true };
const cacheOf = (dir: string): string => path.join(dir, EXPERIMENT_CACHE_FILE);
/** The file's value, its digest checked (the test's own reading of the format). */
function readCache(dir: string): ExperimentSummaryCache {
  const text = fs.readFileSync(cacheOf(dir), 'utf8');
  const m = /^\{"digest":"([0-9a-f]{64})",/.exec(text);
  assert.ok(m, 'the cache carries its digest');
  const body = `{${text.slice(m[0].length).trimEnd()}`;
  assert.equal(createHash('sha256').update(body).digest('hex'), m[1], 'the digest is its body’s');
  return JSON.parse(body) as ExperimentSummaryCache;
}
/** A cache's text as the module writes it: its digest first, so a forgery fails on what it forges. */
const sealed = (value: unknown): string => {
  const body = JSON.stringify(value);
  return `{"digest":"${createHash('sha256').update(body).digest('hex')}",${body.slice(1)}\n`;
};
/** Every run's own summary cache under `dir`. */
const runCaches = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.name === SUMMARY_CACHE_FILE)
    .map((e) => path.join(e.parentPath, e.name));
const removeRunCaches = (dir: string): void => runCaches(dir).forEach((f) => fs.rmSync(f));
/** The summary from the records alone: no cache of either kind. */
async function truth(dir: string): Promise<ExperimentSummary> {
  removeRunCaches(dir);
  fs.rmSync(cacheOf(dir), { force: true });
  return summarizeExperiment(dir, OPTS);
}
const row = (s: ExperimentSummary, run: string, task: string) => s.groups.find((g) => g.run === run)!.rows.find((r) => r.task === task)!;

before(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-experiment-cache-')));
  const made = writeLeaderboardExperiments(tmp, { models: 2 });
  [experiment, other] = made.experiments;
  tasks = made.tasks;
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the experiment’s summary cache', () => {
  test('cold, summarize writes it; warm, it alone gives the same summary and is not written again', async () => {
    assert.ok(!fs.existsSync(cacheOf(experiment)), 'no cache before a read');
    const cold = await summarizeExperiment(experiment, OPTS);
    const cache = readCache(experiment);
    assert.equal(cache.tasks.length, tasks.length, 'every task');
    assert.equal(
      cache.tasks.reduce((n, t) => n + t.runs.length, 0),
      cold.groups.reduce((n, g) => n + g.rows.length, 0),
      'every run',
    );
    assert.deepStrictEqual(runCaches(experiment), [], 'an experiment’s look writes no run’s own cache');
    const before = fs.statSync(cacheOf(experiment), { bigint: true });
    // What is read warm comes from the experiment's file: a run scored from its records would
    // have changed the file, which is then written again.
    assert.deepStrictEqual(await summarizeExperiment(experiment, OPTS), cold);
    const now = fs.statSync(cacheOf(experiment), { bigint: true });
    assert.equal(now.ino, before.ino, 'a cache that holds is not written again');
    assert.equal(now.mtimeNs, before.mtimeNs);
    assert.deepStrictEqual(await truth(experiment), cold, 'the records say the same');
  });

  test('a record edited to the same size, its mtime put back, changes the score read: its entry is not used', async () => {
    await summarizeExperiment(experiment, OPTS);
    const s1 = await summarizeExperiment(experiment, OPTS);
    const run = s1.groups[0].run;
    const id = tasks.find((t) => !row(s1, run, t).metrics.solved);
    assert.ok(id, 'some task is not solved by the agent run');
    const file = experimentLayout(experiment).task(id).run(run).iterationsFile;
    const mtime = Math.floor(Date.now() / 1000) - 3600;
    fs.utimesSync(file, mtime, mtime);
    await summarizeExperiment(experiment, OPTS);
    const st = fs.statSync(file, { bigint: true });
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]) as { gap: number; passed: number; target_passed: number; pytest: { passed: number; failed?: number } };
    // The last line reaches the target, padded with JSON's whitespace to the same byte count.
    const compact = JSON.stringify({ ...last, gap: 0, passed: last.target_passed, pytest: { ...last.pytest, passed: last.target_passed, failed: 0 } });
    const want = Buffer.byteLength(lines[lines.length - 1]);
    assert.ok(Buffer.byteLength(compact) <= want, 'the edit fits in the line');
    const edited = `{${' '.repeat(want - Buffer.byteLength(compact))}${compact.slice(1)}`;
    fs.writeFileSync(file, [...lines.slice(0, -1), edited].join('\n') + '\n');
    fs.utimesSync(file, mtime, mtime);
    const now = fs.statSync(file, { bigint: true });
    assert.deepStrictEqual([now.size, now.mtimeNs, now.ino], [st.size, st.mtimeNs, st.ino], 'same size, mtime and file');
    const s2 = await summarizeExperiment(experiment, OPTS);
    assert.equal(row(s2, run, id).metrics.solved, true, 'the edited record is what is scored');
    assert.deepStrictEqual(await summarizeExperiment(experiment, OPTS), s2, 'and what is kept');
    assert.deepStrictEqual(await truth(experiment), s2, 'the records’ own summary');
  });

  test('task.json edited to the same size, its mtime put back, is what the summary reads: the stat that finds a task keys its entries', async () => {
    await summarizeExperiment(experiment, OPTS);
    const s1 = await summarizeExperiment(experiment, OPTS);
    const run = s1.groups[0].run;
    const id = tasks[3];
    const repo = row(s1, run, id).repository;
    assert.ok(typeof repo === 'string' && repo.length > 1, 'the fixture task names its repository');
    const file = experimentLayout(experiment).task(id).taskFile;
    const mtime = Math.floor(Date.now() / 1000) - 3600;
    fs.utimesSync(file, mtime, mtime);
    await summarizeExperiment(experiment, OPTS);
    const st = fs.statSync(file, { bigint: true });
    // Another repository of the same length, written in place.
    const moved = repo.slice(0, -1) + (repo.endsWith('x') ? 'y' : 'x');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(JSON.stringify(repo), JSON.stringify(moved)));
    fs.utimesSync(file, mtime, mtime);
    const now = fs.statSync(file, { bigint: true });
    assert.deepStrictEqual([now.size, now.mtimeNs, now.ino], [st.size, st.mtimeNs, st.ino], 'same size, mtime and file');
    const s2 = await summarizeExperiment(experiment, OPTS);
    assert.equal(row(s2, run, id).repository, moved, 'the edited task.json is what is read');
    assert.deepStrictEqual(await summarizeExperiment(experiment, OPTS), s2, 'and what is kept');
    assert.deepStrictEqual(await truth(experiment), s2, 'the records’ own summary');
  });

  test('a forged cache is refused and written again from the records', async () => {
    const honestSummary = await summarizeExperiment(experiment, OPTS);
    await summarizeExperiment(other, OPTS);
    const honest = readCache(experiment);
    const honestText = fs.readFileSync(cacheOf(experiment), 'utf8');
    const run = honestSummary.groups[0].run;
    // The forger's score: every run solved at once, EvoScore 1.
    const forged = (patch: (c: ExperimentSummaryCache) => unknown): string => {
      const c = structuredClone(honest);
      for (const t of c.tasks)
        for (const r of t.runs) for (const v of r.variants) Object.assign(v.run.metrics, { solved: true, evoScore: 1, evoScoreReference: 1 });
      return sealed(patch(c));
    };
    const cases: Array<[string, () => void]> = [
      [
        'entries whose key is not the records’ (another size of iteration.jsonl)',
        () =>
          fs.writeFileSync(
            cacheOf(experiment),
            forged((c) => {
              for (const t of c.tasks)
                for (const r of t.runs) {
                  const [dev, ino, , mtime, ctime] = r.key.lines!.split(':');
                  r.key.lines = `${dev}:${ino}:1:${mtime}:${ctime}`;
                }
              return c;
            }),
          ),
      ],
      [
        'each task’s entries moved to the next task',
        () =>
          fs.writeFileSync(
            cacheOf(experiment),
            forged((c) => ({ ...c, tasks: c.tasks.map((t, i) => ({ ...t, task: c.tasks[(i + 1) % c.tasks.length].task })) })),
          ),
      ],
      [
        'the other experiment’s entries under this one’s task names',
        () => {
          const theirs = readCache(other);
          fs.writeFileSync(
            cacheOf(experiment),
            forged((c) => ({ ...c, tasks: theirs.tasks })),
          );
        },
      ],
      [
        'another code’s numbers',
        () =>
          fs.writeFileSync(
            cacheOf(experiment),
            forged((c) => ({ ...c, code: 'another-version' })),
          ),
      ],
      [
        'a right digest on a body not of the schema’s shape (a run’s metrics a string)',
        () =>
          fs.writeFileSync(
            cacheOf(experiment),
            forged((c) => {
              c.tasks[0].runs[0].variants[0].run.metrics = 'solved' as never;
              return c;
            }),
          ),
      ],
      [
        'the honest cache with a score edited under its digest',
        () =>
          fs.writeFileSync(
            cacheOf(experiment),
            honestText.replace(/"solved":(true|false)/, (_m, v: string) => `"solved":${v === 'true' ? 'false' : 'true '}`),
          ),
      ],
      ['not JSON', () => fs.writeFileSync(cacheOf(experiment), '{"digest":')],
      ['a link to the other experiment’s cache', () => fs.symlinkSync(cacheOf(other), cacheOf(experiment))],
    ];
    for (const [what, plant] of cases) {
      fs.rmSync(cacheOf(experiment), { force: true });
      plant();
      // The runs' own caches gone too: whatever is not the forged file's is read from the records.
      removeRunCaches(experiment);
      assert.deepStrictEqual(await summarizeExperiment(experiment, OPTS), honestSummary, `${what}: the records' summary`);
      assert.ok(fs.lstatSync(cacheOf(experiment)).isFile(), `${what}: written again (a link replaced, not followed)`);
      assert.deepStrictEqual(readCache(experiment), honest, `${what}: as the records say`);
    }
    assert.ok(
      honestSummary.groups[0].rows.some((r) => !r.metrics.solved),
      'the forged score (every run solved) differs from the records’, so each case above tells them apart',
    );
    assert.equal(row(honestSummary, run, tasks[0]).task, tasks[0]);
    assert.deepStrictEqual(readCache(other).tasks.length, tasks.length, 'the linked-to cache is untouched');
  });
});
