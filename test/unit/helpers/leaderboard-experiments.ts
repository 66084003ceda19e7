// Experiment folders shaped like the paper's, written by code: the 17 models of the leaderboard
// fixture, each an experiment of the same 100 tasks from 68 repositories, 20 iterations, plus the
// upstream developers' replay in the first one (18 entries), and a leaderboard.json naming them
// with providers and release dates. Every file is what `sweci run` writes and the real readers
// read (sweci-experiment.json, .sweci/task.json, run.json, iteration.jsonl, the batch state),
// of the records' types (task.json and the lines checked against their schemas too; the readers
// check the rest); no agent log is written, since nothing that scores may read one.
// The scores vary by model and task (progress, regressions, crashes, early solves), from a fixed
// seed, so the same call writes the same folders.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { experimentLayout, type ExperimentRecord } from '../../../src/core/batch/experiment';
import type { TaskStatus } from '../../../src/core/records/task-status-file';
import { seededRandom } from '../../../src/core/leaderboard/seeded-random';
import { iterationRecordSchema, type IterationRecord, type RoleStepRecord } from '../../../src/core/loop/iteration-record';
import { HUMAN_HISTORY_RUN, slugifyRunName } from '../../../src/core/loop/run-name';
import type { RunInfo } from '../../../src/core/loop/run-store';
import { taskRecordSchema } from '../../../src/core/workspace/task-record-schema';
import { LEADERBOARD_MODELS, fixtureTaskIds } from './leaderboard-fixture';

export const EXPERIMENT_ITERATIONS = 20;

export interface LeaderboardExperiments {
  /** leaderboard.json: 17 experiments and the first one's human-history run. */
  file: string;
  experiments: string[];
  tasks: string[];
}

/** Writes the experiments under `root` (made if needed) and the leaderboard.json naming them. */
export function writeLeaderboardExperiments(root: string, opts: { models?: number } = {}): LeaderboardExperiments {
  const models = LEADERBOARD_MODELS.slice(0, opts.models ?? LEADERBOARD_MODELS.length);
  const tasks = fixtureTaskIds();
  const random = seededRandom(34);
  // Per task: the tests the target passes, the base's share of them, and how hard it is.
  const shapes = tasks.map(() => {
    const target = 20 + Math.floor(random() * 280);
    const init = Math.floor(target * (0.3 + random() * 0.6));
    return { target, init: Math.min(init, target - 1), difficulty: random() };
  });
  const entries: Array<{ experiment: string; run?: string; label: string; provider?: string; released?: string }> = [];
  const experiments: string[] = [];
  models.forEach(([label, provider, released], m) => {
    const dir = path.join(root, 'experiments', slugifyRunName(label));
    const run = slugifyRunName(label);
    experiments.push(dir);
    const record: ExperimentRecord = {
      schema: 1,
      created: stamp(m, 0),
      dataset: '/data/swe-ci',
      split: 'test',
      run,
      agents: { architect: label, programmer: label },
      maxIterations: EXPERIMENT_ITERATIONS,
    };
    writeJson(experimentLayout(dir).file, record);
    // Skill falls down the list, with some noise between neighbours.
    const skill = 0.85 - m * 0.03 + random() * 0.04;
    tasks.forEach((id, t) => {
      const lines = agentRun(run, label, skill, shapes[t], random, m);
      writeTask(dir, id, t, loopInfo(run, label, m), lines);
      if (m === 0) writeHumanHistory(dir, id, t, shapes[t], random);
    });
    entries.push({ experiment: path.relative(root, dir), label, provider, released });
    if (m === 0) entries.push({ experiment: path.relative(root, dir), run: HUMAN_HISTORY_RUN, label: HUMAN_HISTORY_RUN });
  });
  const file = path.join(root, 'leaderboard.json');
  writeJson(file, { entries });
  return { file, experiments, tasks };
}

interface TaskShape {
  target: number;
  init: number;
  difficulty: number;
}

/** One agent run: line 0 (the base), then up to 20 iterations that creep towards the target, stopping when it is reached. */
function agentRun(run: string, label: string, skill: number, shape: TaskShape, random: () => number, m: number): IterationRecord[] {
  const lines: IterationRecord[] = [baseLine(run, shape, m)];
  let passed = shape.init;
  let last = shape.init;
  for (let k = 1; k <= EXPERIMENT_ITERATIONS && last < shape.target; k++) {
    const step = (input: number): RoleStepRecord => ({
      execution_time: 30 + Math.floor(random() * 600),
      input_tokens: input,
      output_tokens: Math.floor(input / 20),
      cached_tokens: Math.floor(input * 0.7),
      cost_usd: Math.round(input * (0.4 + ((m * 7) % 5) * 0.3)) / 1_000_000,
      model_calls: 5 + Math.floor(random() * 40),
      usage_source: 'wire',
      network: 'model-only',
      kind: 'agent',
      agent: label,
      tries: 1,
    });
    const architect = step(20_000 + Math.floor(random() * 60_000));
    const programmer = step(50_000 + Math.floor(random() * 200_000));
    const r = random();
    if (r < 0.03) {
      lines.push({
        ...line(run, k, m),
        gap: -1,
        pytest: {},
        architect,
        programmer,
        passed: null,
        target_passed: shape.target,
        pytest_error: 'pytest timed out',
      });
      continue;
    }
    if (r < 0.03 + 0.12 * (1 - skill)) passed = Math.max(0, last - 1 - Math.floor(random() * 6));
    else if (random() < skill * (1 - shape.difficulty * 0.6)) passed = last + Math.max(1, Math.round((shape.target - last) * random() * skill));
    passed = Math.min(passed, shape.target);
    const lost = Math.max(0, last - passed);
    lines.push({
      ...line(run, k, m),
      gap: shape.target - passed,
      pytest: { passed, failed: shape.target - passed },
      architect,
      programmer,
      passed,
      target_passed: shape.target,
      regressions: Array.from({ length: lost }, (_, i) => `tests/test_core.py::test_case_${i}`),
      pytest_time: 5 + Math.floor(random() * 60),
    });
    last = passed;
  }
  return lines;
}

/** The developers' commits from base to target: 5 to 20 of them, the last one the target. */
function writeHumanHistory(dir: string, id: string, t: number, shape: TaskShape, random: () => number): void {
  const commits = 5 + Math.floor(random() * 16);
  const lines: IterationRecord[] = [baseLine(HUMAN_HISTORY_RUN, shape, 99)];
  let passed = shape.init;
  for (let k = 1; k <= commits; k++) {
    passed = k === commits ? shape.target : Math.min(shape.target, Math.max(0, passed + Math.round((random() - 0.25) * 8)));
    const human: RoleStepRecord = { kind: 'human', agent: `dev${k % 7}`, tries: 1 };
    lines.push({
      ...line(HUMAN_HISTORY_RUN, k, 99),
      gap: shape.target - passed,
      pytest: { passed, failed: shape.target - passed },
      architect: human,
      programmer: human,
      passed,
      target_passed: shape.target,
      note: `upstream commit ${k}`,
    });
  }
  const human = { kind: 'human' as const, label: 'upstream authors' };
  const info: RunInfo = {
    schema: 1,
    name: HUMAN_HISTORY_RUN,
    created: stamp(99, t),
    kind: 'human-history',
    roles: { architect: human, programmer: human },
    maxIterations: commits,
    baseCommit: sha(t, 0),
  };
  writeRun(dir, id, info, lines);
}

function loopInfo(run: string, label: string, m: number): RunInfo {
  const agent = { kind: 'agent' as const, label, preset: 'claude', model: label, timeoutSec: 3600, maxTries: 3 };
  return {
    schema: 1,
    name: run,
    created: stamp(m, 1),
    kind: 'loop',
    roles: { architect: agent, programmer: agent },
    maxIterations: EXPERIMENT_ITERATIONS,
    baseCommit: sha(0, 0),
    branch: `sweci/${run}`,
  };
}

function baseLine(run: string, shape: TaskShape, m: number): IterationRecord {
  return {
    ...line(run, 0, m),
    gap: shape.target - shape.init,
    pytest: { passed: shape.init, failed: shape.target - shape.init },
    passed: shape.init,
    target_passed: shape.target,
    pytest_time: 20,
  };
}

function line(run: string, k: number, m: number): IterationRecord {
  return {
    gap: 0,
    pytest: {},
    iteration: k,
    run,
    started_at: stamp(m, 2 * k),
    finished_at: stamp(m, 2 * k + 1),
    commit: sha(m, k),
    passed: 0,
    target_passed: 0,
    regressions: [],
    tampered: [],
    outside_changes: [],
    isolation: 'sandbox',
  };
}

function writeTask(dir: string, id: string, t: number, info: RunInfo, lines: IterationRecord[]): void {
  const task = experimentLayout(dir).task(id);
  const repo = id.split('__')[0];
  writeJson(
    task.taskFile,
    taskRecordSchema.parse({
      schema: 1,
      task: {
        id,
        repo: `org/${repo}`,
        baseSha: sha(t, 0),
        targetSha: sha(t, 1),
        source: { kind: 'git', repoPath: `/data/repos/${repo}`, baseRef: sha(t, 0), targetRef: sha(t, 1) },
      },
      oracleDir: experimentLayout(dir).oracleDir(id),
      createdAt: stamp(0, t),
      baseCommit: sha(t, 2),
    }),
  );
  writeRun(dir, id, { ...info, baseCommit: sha(t, 2) }, lines);
  const last = lines[lines.length - 1];
  const status: TaskStatus = {
    schema: 1,
    task: id,
    state: last.gap === 0 ? 'solved' : 'max-iterations',
    updated: stamp(0, t),
    iterations: lines.length - 1,
    gap: last.gap,
  };
  writeJson(experimentLayout(dir).statusFile(id), status);
}

function writeRun(dir: string, id: string, info: RunInfo, lines: IterationRecord[]): void {
  const layout = experimentLayout(dir).task(id).run(info.name);
  writeJson(layout.runFile, info);
  fs.writeFileSync(layout.iterationsFile, lines.map((l) => JSON.stringify(iterationRecordSchema.parse(l)) + '\n').join(''));
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** A fixed time: minutes after 2025-12-01, apart per experiment. */
function stamp(m: number, minutes: number): string {
  return new Date(Date.UTC(2025, 11, 1) + (m * 10_000 + minutes) * 60_000).toISOString();
}

function sha(a: number, b: number): string {
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).repeat(3).slice(0, 40);
}
