// The per-run summary cache (src/core/scoring/run-summary-cache.ts) on real experiment folders
// (test/unit/helpers/leaderboard-experiments.ts: one model's experiment, 100 tasks, its agent run
// and the developers' replay). The scores read through it are the chart's own, cold and warm; it is
// never trusted once a record changed (even one edited to the same size with its mtime put back);
// a cache with another key, another run's name, another code's numbers, a body its digest does
// not match, a right digest on a body not of the schema's shape, a link or garbage is ignored and
// written again; a missing pending/ is no error. The task's facts it also keeps
// (task.json's repository, the batch status) are the files' own, and an edit to either file is
// seen the same way.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { experimentLayout, experimentTaskIds } from '../../../src/core/batch/experiment';
import { summarizeExperiment } from '../../../src/core/batch/experiment-summary';
import { readTaskStatus } from '../../../src/core/batch/task-status';
import { loadChartRuns } from '../../../src/core/scoring/load-chart-data';
import { loadRunScores } from '../../../src/core/scoring/run-scores';
import { SUMMARY_CACHE_FILE } from '../../../src/core/scoring/run-summary-cache';
import { runSummaryCacheSchema, type RunSummaryCache } from '../../../src/core/scoring/run-summary-cache-schema';
import { RUN_SUMMARY_CODE } from '../../../src/core/scoring/run-summary-code';
import { lineUsageExtras } from '../../../src/core/scoring/usage-extras';
import type { TaskFolder } from '../../../src/core/workspace/task-folder';
import { readTaskRecord } from '../../../src/core/workspace/task-record';
import { writeLeaderboardExperiments } from '../helpers/leaderboard-experiments';
import { repoRoot } from '../helpers/repo-root';

type TaskRunScores = Awaited<ReturnType<typeof loadRunScores>>;

let tmp: string;
let experiment: string;
let tasks: string[];

const task = (id: string): TaskFolder => experimentLayout(experiment).task(id);
const cachePath = (id: string, run: string): string => path.join(task(id).run(run).dir, SUMMARY_CACHE_FILE);
const readCache = (id: string, run: string): RunSummaryCache => runSummaryCacheSchema.parse(JSON.parse(fs.readFileSync(cachePath(id, run), 'utf8')));
const cacheStat = (id: string, run: string) => fs.statSync(cachePath(id, run), { bigint: true });
/** A cache's file as the module writes it: its body's digest first (so a forgery below fails on what it forges, not on a missing digest). */
const cacheText = (c: unknown): string => {
  const body = JSON.stringify(c);
  return `{"digest":"${createHash('sha256').update(body).digest('hex')}",${body.slice(1)}\n`;
};

type Truth = Omit<TaskRunScores, 'runs' | 'task'> & { runs: Array<Omit<TaskRunScores['runs'][number], 'info'>> };

/** The task's runs as the chart scores them (the uncached path), in the shape loadRunScores gives (without run.json's info). */
async function chartTruth(id: string, maxIterations?: number): Promise<Truth> {
  const { data, lines } = await loadChartRuns(task(id), maxIterations ? { maxIterations } : {});
  return {
    maxIterations: data.maxIterations,
    runs: data.runs.map(({ points, ...run }) => ({ ...run, lines: points.length, usage: lineUsageExtras(lines.get(run.run)!) })),
    skipped: data.skipped,
  };
}

/** loadRunScores without the run's info and the task's facts (the chart's data has neither) to compare with chartTruth. */
function withoutInfo({ task: _task, ...s }: TaskRunScores): Truth {
  return { ...s, runs: s.runs.map(({ info: _info, ...r }) => r) };
}

/**
 * Rewrites `file` with `edit` applied to its text, which must keep its byte count, and puts its
 * mtime back: only its ctime tells the edit apart.
 */
function editInPlace(file: string, edit: (text: string) => string): void {
  const mtime = Math.floor(Date.now() / 1000) - 7200;
  fs.utimesSync(file, mtime, mtime);
  const st = fs.statSync(file, { bigint: true });
  const text = fs.readFileSync(file, 'utf8');
  const edited = edit(text);
  assert.notEqual(edited, text, 'the edit changes the file');
  assert.equal(Buffer.byteLength(edited), Buffer.byteLength(text), 'the edit keeps the size');
  fs.writeFileSync(file, edited);
  fs.utimesSync(file, mtime, mtime);
  const now = fs.statSync(file, { bigint: true });
  assert.equal(now.size, st.size, 'same size');
  assert.equal(now.mtimeNs, st.mtimeNs, 'same mtime');
  assert.equal(now.ino, st.ino, 'same file');
}

before(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-summary-cache-')));
  const made = writeLeaderboardExperiments(tmp, { models: 1 });
  experiment = made.experiments[0];
  tasks = made.tasks;
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the summary cache', () => {
  // A task the agent run has not solved (the edit below solves it).
  let unsolved: string;
  const id = () => unsolved;
  let run: string;

  test('cold, the scores are the chart’s own and each run gets a cache; warm, the same scores from the cache, which is not written again', async () => {
    for (const t of tasks) {
      if ((await chartTruth(t, 20)).runs.some((r) => r.kind === 'agent' && !r.metrics.solved)) {
        unsolved = t;
        break;
      }
    }
    assert.ok(unsolved, 'some task is not solved by the agent run');
    const truth = await chartTruth(id(), 20);
    assert.equal(truth.runs.length, 2, 'the task has its agent run and the replay');
    run = truth.runs.find((r) => r.kind === 'agent')!.run;
    assert.ok(!fs.existsSync(cachePath(id(), run)), 'no cache before a read');
    const cold = loadRunScores(task(id()), { maxIterations: 20 });
    assert.deepStrictEqual(withoutInfo(cold), truth);
    for (const r of cold.runs) assert.equal(readCache(id(), r.run).base.info.name, r.run);
    const before = cacheStat(id(), run);
    const warm = loadRunScores(task(id()), { maxIterations: 20 });
    assert.deepStrictEqual(warm, cold);
    const now = cacheStat(id(), run);
    assert.equal(now.ino, before.ino, 'a cache that holds is not written again');
    assert.equal(now.mtimeNs, before.mtimeNs);
  });

  test('another N is a second variant of the same cache; both are then read warm', async () => {
    const truth = await chartTruth(id(), 10);
    const cold = loadRunScores(task(id()), { maxIterations: 10 });
    assert.deepStrictEqual(withoutInfo(cold), truth);
    assert.equal(readCache(id(), run).variants.length, 2);
    const before = cacheStat(id(), run);
    assert.deepStrictEqual(loadRunScores(task(id()), { maxIterations: 10 }), cold);
    assert.deepStrictEqual(withoutInfo(loadRunScores(task(id()), { maxIterations: 20 })), await chartTruth(id(), 20));
    assert.equal(cacheStat(id(), run).mtimeNs, before.mtimeNs);
  });

  test('a record edited to the same size, its mtime put back, is read again: the cache is not trusted', async () => {
    const layout = task(id()).run(run);
    const file = layout.iterationsFile;
    // A whole second, so the mtime can be put back exactly.
    const mtime = Math.floor(Date.now() / 1000) - 3600;
    fs.utimesSync(file, mtime, mtime);
    const before = loadRunScores(task(id()), { maxIterations: 20 });
    const agent = before.runs.find((r) => r.run === run)!;
    assert.equal(agent.metrics.solved, false, 'the fixture task is not solved yet by this run (pick another task)');
    const st = fs.statSync(file, { bigint: true });
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]) as { gap: number; passed: number; target_passed: number; pytest: { passed: number; failed?: number } };
    // The last line reaches the target: gap 0 and every target test passed, padded to the same byte count.
    const solved = { ...last, gap: 0, passed: last.target_passed, pytest: { ...last.pytest, passed: last.target_passed, failed: 0 } };
    const compact = JSON.stringify(solved);
    const want = Buffer.byteLength(lines[lines.length - 1]);
    assert.ok(Buffer.byteLength(compact) <= want, 'the edit fits in the line');
    // Padded with JSON's own whitespace to the line's byte count.
    const edited = `{${' '.repeat(want - Buffer.byteLength(compact))}${compact.slice(1)}`;
    fs.writeFileSync(file, [...lines.slice(0, -1), edited].join('\n') + '\n');
    fs.utimesSync(file, mtime, mtime);
    const now = fs.statSync(file, { bigint: true });
    assert.equal(now.size, st.size, 'same size');
    assert.equal(now.mtimeNs, st.mtimeNs, 'same mtime');
    assert.equal(now.ino, st.ino, 'same file');
    const after = loadRunScores(task(id()), { maxIterations: 20 });
    assert.equal(after.runs.find((r) => r.run === run)!.metrics.solved, true, 'the edited record is what is scored');
    assert.deepStrictEqual(withoutInfo(after), await chartTruth(id(), 20));
    assert.equal(readCache(id(), run).base.lines, lines.length);
  });

  test('a line appended is read: the summary counts it', async () => {
    const t = tasks[4];
    const s1 = await summarizeExperiment(experiment, { maxEpoch: 20 });
    const row1 = s1.groups[0].rows.find((r) => r.task === t)!;
    const file = task(t).run(s1.groups[0].run).iterationsFile;
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1]) as { iteration: number };
    fs.appendFileSync(file, JSON.stringify({ ...last, iteration: last.iteration + 1 }) + '\n');
    const s2 = await summarizeExperiment(experiment, { maxEpoch: 20 });
    assert.equal(s2.groups[0].rows.find((r) => r.task === t)!.metrics.iterations, row1.metrics.iterations + 1);
  });

  test('a forged cache is ignored and written again: another key, another run’s name, another code, garbage, a link', async () => {
    const t = tasks[5];
    const truth = await chartTruth(t, 20);
    loadRunScores(task(t), { maxIterations: 20 });
    const agentRun = (await chartTruth(t, 20)).runs.find((r) => r.kind === 'agent')!.run;
    const honest = readCache(t, agentRun);
    const honestText = fs.readFileSync(cachePath(t, agentRun), 'utf8');
    const forged = (patch: (c: RunSummaryCache) => unknown): string => {
      const c = structuredClone(honest);
      // The forger's score: solved at once, EvoScore 1.
      for (const v of c.variants) Object.assign(v.run.metrics, { solved: true, evoScore: 1, evoScoreReference: 1 });
      return cacheText(patch(c));
    };
    const other = tasks[6];
    loadRunScores(task(other), { maxIterations: 20 });
    const cases: Array<[string, () => void]> = [
      [
        'a key that is not the records’ (another size)',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => {
              const [dev, ino, , mtime, ctime] = c.key.lines!.split(':');
              return { ...c, key: { ...c.key, lines: `${dev}:${ino}:1:${mtime}:${ctime}` } };
            }),
          ),
      ],
      [
        'the key of another run’s records',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => ({ ...c, key: readCache(other, agentRun).key })),
          ),
      ],
      [
        'a key with the records’ size and mtime but not their inode and ctime',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => {
              const [, , size, mtime] = c.key.lines!.split(':');
              assert.notEqual(`1:2:${size}:${mtime}:3`, c.key.lines);
              return { ...c, key: { ...c.key, lines: `1:2:${size}:${mtime}:3` } };
            }),
          ),
      ],
      [
        'another run’s name inside',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => ({ ...c, base: { ...c.base, info: { ...c.base.info, name: 'human-history' } } })),
          ),
      ],
      [
        'another code’s numbers',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => ({ ...c, code: 'another-version' })),
          ),
      ],
      [
        'a variant the schema does not allow (the file has its digest: dropped when the cache is written again)',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => ({ ...c, variants: [{ variant: 'any', run: {} }] })),
          ),
      ],
      [
        'the records’ key and a right digest, but no base (not the schema’s shape)',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => ({ ...c, base: null })),
          ),
      ],
      [
        'the records’ key and a right digest, but a variant’s metrics a string',
        () =>
          fs.writeFileSync(
            cachePath(t, agentRun),
            forged((c) => ({ ...c, variants: c.variants.map((v) => ({ ...v, run: { ...v.run, metrics: 'solved' } })) })),
          ),
      ],
      ['not JSON', () => fs.writeFileSync(cachePath(t, agentRun), '{"schema":1,')],
      [
        'the honest cache with its score edited and its digest kept',
        () => {
          fs.writeFileSync(
            cachePath(t, agentRun),
            honestText.replace(/"solved":(true|false)/, (_m, v: string) => `"solved":${v === 'true' ? 'false' : 'true '}`),
          );
        },
      ],
      ['the honest cache without its digest', () => fs.writeFileSync(cachePath(t, agentRun), JSON.stringify(honest))],
      [
        'a link to a cache that holds (another task’s run)',
        () => {
          fs.symlinkSync(cachePath(other, agentRun), cachePath(t, agentRun));
        },
      ],
      [
        'a folder',
        () => {
          fs.mkdirSync(cachePath(t, agentRun));
        },
      ],
    ];
    for (const [what, plant] of cases) {
      fs.rmSync(cachePath(t, agentRun), { recursive: true, force: true });
      plant();
      const read = loadRunScores(task(t), { maxIterations: 20 });
      assert.deepStrictEqual(withoutInfo(read), truth, `${what}: the records' scores`);
      if (what !== 'a folder') {
        assert.ok(fs.lstatSync(cachePath(t, agentRun)).isFile(), `${what}: the cache is written again (the link replaced, not followed)`);
        assert.deepStrictEqual(readCache(t, agentRun).key, honest.key, `${what}: with the records' key`);
      }
    }
    assert.deepStrictEqual(readCache(other, agentRun).base.info.name, agentRun, 'the linked-to cache is untouched');
  });

  test('a missing pending/ is no error; a journal that appears is part of the key', async () => {
    const t = tasks[7];
    const truth = await chartTruth(t, 20);
    const agentRun = truth.runs.find((r) => r.kind === 'agent')!.run;
    assert.ok(!fs.existsSync(task(t).run(agentRun).pendingDir), 'the fixture has no pending/');
    loadRunScores(task(t), { maxIterations: 20 });
    assert.equal(readCache(t, agentRun).key.journal, null);
    const lines = truth.runs.find((r) => r.run === agentRun)!.lines;
    fs.mkdirSync(task(t).run(agentRun).pendingDir);
    fs.writeFileSync(
      path.join(task(t).run(agentRun).pendingDir, 'journal.json'),
      JSON.stringify({ schema: 1, run: agentRun, iteration: lines, started_at: new Date().toISOString(), startCommit: 'abc' }),
    );
    const read = loadRunScores(task(t), { maxIterations: 20 });
    assert.equal(read.runs.find((r) => r.run === agentRun)!.pending, true, 'the iteration in progress is seen');
    assert.notEqual(readCache(t, agentRun).key.journal, null);
    fs.rmSync(task(t).run(agentRun).pendingDir, { recursive: true });
  });

  test('the task’s facts (task.json’s repository, the batch status) come with the runs, cold and warm, and an edit to either file is seen', async () => {
    // A solved task (its status then says "solved", which the edit below swaps for "failed", of the same length), not one edited above.
    let t = '';
    for (const id of tasks.slice(8)) if ((await readTaskStatus(experiment, id))?.state === 'solved') t ||= id;
    assert.ok(t, 'some task is solved');
    const statusFile = experimentLayout(experiment).statusFile(t);
    const opts = { maxIterations: 20, statusFile };
    const truth = async () => {
      const record = await readTaskRecord(task(t));
      const status = await readTaskStatus(experiment, t);
      return {
        task: { repo: record?.task.repo ?? null },
        status: status ? { state: status.state, ...(status.reason ? { reason: status.reason } : {}) } : null,
      };
    };
    const agentRun = (await chartTruth(t, 20)).runs.find((r) => r.kind === 'agent')!.run;
    const cold = loadRunScores(task(t), opts);
    assert.deepStrictEqual(cold.task, await truth());
    assert.ok(cold.task.task?.repo && cold.task.status, 'the fixture task names its repository and has a status');
    assert.deepStrictEqual(readCache(t, agentRun).task, cold.task, 'the cache keeps them');
    const before = cacheStat(t, agentRun);
    assert.deepStrictEqual(loadRunScores(task(t), opts), cold, 'warm: the same');
    assert.equal(cacheStat(t, agentRun).mtimeNs, before.mtimeNs, 'a cache that holds is not written again');

    // task.json names another repository of the same length.
    const repo = cold.task.task.repo;
    const other = repo.slice(0, -1) + (repo.endsWith('x') ? 'y' : 'x');
    editInPlace(task(t).taskFile, (text) => text.replace(JSON.stringify(repo), JSON.stringify(other)));
    const moved = loadRunScores(task(t), opts);
    assert.equal(moved.task.task?.repo, other, 'the edited task.json is what is read');
    assert.deepStrictEqual(moved.task, await truth());
    assert.deepStrictEqual(withoutInfo(moved), withoutInfo(cold), 'the scores stay the records’');

    // The status says another state of the same length.
    editInPlace(statusFile, (text) => text.replace('"state": "solved"', '"state": "failed"'));
    const restated = loadRunScores(task(t), opts);
    assert.equal(restated.task.status?.state, 'failed', 'the edited status is what is read');
    assert.deepStrictEqual(restated.task, await truth());
    assert.deepStrictEqual(readCache(t, agentRun).task, restated.task, 'the cache is written again with it');

    // A status that goes is part of the key too.
    fs.rmSync(statusFile);
    assert.equal(loadRunScores(task(t), opts).task.status, null, 'no status once the file is gone');
    assert.equal(readCache(t, agentRun).key.status, null);
  });

  test('summarize, cold and warm, is the same summary', async () => {
    for (const id of await experimentTaskIds(experiment)) for (const r of ['human-history']) fs.rmSync(cachePath(id, r), { force: true });
    const cold = await summarizeExperiment(experiment, { gammas: [0.8, 1.2], maxEpoch: 20, usage: true });
    const warm = await summarizeExperiment(experiment, { gammas: [0.8, 1.2], maxEpoch: 20, usage: true });
    assert.deepStrictEqual(warm, cold);
    assert.equal(cold.groups.length, 2);
    assert.equal(cold.groups[0].rows.length, tasks.length);
  });
});

/**
 * The sources whose code computes what the cache holds. When one changes, a cache written by the
 * old code must not be read as the new one's: RUN_SUMMARY_CODE changes with them.
 */
const SCORING_SOURCES = [
  'src/shared/metrics',
  'src/shared/chart-types.ts',
  'src/core/scoring/load-chart-data.ts',
  'src/core/scoring/run-scores.ts',
  'src/core/scoring/run-summary-cache.ts',
  // The records' identity the key is made of.
  'src/core/util/file-identity.ts',
  'src/core/scoring/run-summary-cache-check.ts',
  'src/core/scoring/run-summary-cache-schema.ts',
  // The experiment's file of the runs' caches.
  'src/core/scoring/experiment-summary-cache.ts',
  'src/core/records/plain-check.ts',
  'src/core/scoring/usage-extras.ts',
  'src/core/loop/iteration-record.ts',
  'src/core/loop/iteration-line-check.ts',
  'src/core/records/record-file.ts',
  'src/core/loop/journal.ts',
  'src/core/loop/run-store.ts',
  // The task's facts the cache keeps.
  'src/core/records/task-status-file.ts',
  'src/core/records/sealed-json.ts',
  'src/core/task/task-spec.ts',
  'src/core/workspace/task-record.ts',
  'src/core/workspace/task-record-schema.ts',
];

function scoringSourcesHash(root: string): string {
  const files = SCORING_SOURCES.flatMap((p) => {
    const full = path.join(root, p);
    return fs.statSync(full).isDirectory()
      ? fs
          .readdirSync(full)
          .filter((n) => n.endsWith('.ts'))
          .map((n) => path.posix.join(p, n))
      : [p];
  }).sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\0${fs.readFileSync(path.join(root, f), 'utf8').replace(/\r\n/g, '\n')}\0`);
  return hash.digest('hex').slice(0, 16);
}

test('RUN_SUMMARY_CODE names the scoring sources as they are (a cache of older code is never read)', () => {
  const now = scoringSourcesHash(repoRoot);
  assert.equal(
    RUN_SUMMARY_CODE,
    now,
    `The code that computes the per-run summary cache changed: set RUN_SUMMARY_CODE in src/core/scoring/run-summary-code.ts to '${now}', so caches of the old code are read as stale.`,
  );
});
