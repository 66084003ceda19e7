// A command's whole output reaches a reader slower than the command (`sweci … --format json | jq`
// on a busy machine): the CLI exits only once its output is taken, not with writes still queued
// past the pipe's 64 KiB. A reader that stops early (`| head`) ends nothing: the command runs to
// its own end and exit code, with no crash on the closed pipe.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { writeLeaderboardExperiments } from '../helpers/leaderboard-experiments';
import { cli } from './batch-fixture';
import { EXPERIMENT_CACHE_FILE, type ExperimentSummaryCache } from '../../../src/core/scoring/experiment-summary-cache';
import { SUMMARY_CACHE_FILE } from '../../../src/core/scoring/run-summary-cache';

const PIPE_BUFFER = 65536;

test('sweci summarize --format json reaches a reader that waits, whole, past the pipe buffer', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-pipe-'));
  try {
    // One model's experiment of 100 tasks with its human-history run: 200 rows of JSON.
    const { experiments } = writeLeaderboardExperiments(tmp, { models: 1 });
    // A shell pipe (Node's own stdio are socket pairs, whose buffers are larger) whose reader sleeps first.
    const r = spawnSync('sh', ['-c', '"$0" "$1" summarize "$2" --format json | { sleep 2; cat; }', process.execPath, cli, experiments[0]], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    assert.equal(r.status, 0, r.stderr);
    const out = r.stdout;
    assert.ok(out.length > PIPE_BUFFER, `${out.length} bytes: more than the pipe holds`);
    const summary = JSON.parse(out) as { groups: { run: string; rows: unknown[] }[] };
    assert.deepEqual(
      summary.groups.map((g) => [g.run, g.rows.length]),
      [
        ['claude-opus-4.5', 100],
        ['human-history', 100],
      ],
    );
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
});

test('sweci summarize into a reader that stops after 100 bytes ends with its own exit code, no EPIPE crash, and its work done', async () => {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-pipe-'));
  try {
    const { experiments } = writeLeaderboardExperiments(tmp, { models: 1 });
    const err = path.join(tmp, 'stderr.txt');
    // bash for PIPESTATUS: the CLI's own status, not head's.
    const r = spawnSync(
      'bash',
      ['-c', '"$0" "$1" summarize "$2" --format json 2>"$3" | head -c 100 >/dev/null; echo "${PIPESTATUS[0]}"', process.execPath, cli, experiments[0], err],
      { encoding: 'utf8' },
    );
    assert.equal(r.stdout.trim(), '0', await fs.readFile(err, 'utf8'));
    assert.doesNotMatch(await fs.readFile(err, 'utf8'), /EPIPE|Unhandled/);
    // The command went on past the closed pipe: the experiment's summary cache, written once at
    // the end of the look, holds every run (and the look wrote no run's own cache).
    const cache = JSON.parse(await fs.readFile(path.join(experiments[0], EXPERIMENT_CACHE_FILE), 'utf8')) as ExperimentSummaryCache;
    assert.equal(
      cache.tasks.reduce((n, t) => n + t.runs.length, 0),
      200,
      'both runs of every task cached',
    );
    assert.deepEqual(
      (await fs.readdir(experiments[0], { recursive: true })).filter((f) => f.endsWith(SUMMARY_CACHE_FILE)),
      [],
    );
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
});
