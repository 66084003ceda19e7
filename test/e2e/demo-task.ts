// A checked-out demo task for e2e scenarios, prepared once per run with the core engine
// (the integration tests cover checking out through the command).
import { imageArchiveOf } from '../../src/core/task/task-spec';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkOutTask } from '../../src/core/checkout/check-out-task';
import { DEFAULT_RUNTIME_SETTINGS } from '../../src/core/runtime/runtime-settings';
import { openTaskEnvironment } from '../../src/core/runtime/task-environment';
import { readDatasetTasks } from '../../src/core/task/dataset';
import { oracleLayout } from '../../src/core/workspace/layout';
import type { DemoDataset } from '../../scripts/demo-dataset';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import { demoImageArchive } from '../../scripts/demo-image';
import { demoAgentSettings, demoModelUrl, startDemoModel } from '../../scripts/demo-agents';
import type { ModelServer } from '../../scripts/stand-in-model/model-server';
import { copyTaskAs, TASK_SUFFIXES } from './task-copy';

export interface PreparedTask {
  taskDir: string;
  oracleDir: string;
  /** First-parent commits base..target of the demo history. */
  commits: string[];
  expectedGap: number;
  passedNow: number;
  passedByTarget: number;
  /** Environment for the scripted programmer: its own copy of the upstream, outside the (hidden) oracle. */
  programmerEnv: Record<string, string>;
  /** What the sandbox shows the scripted agents (sweci.sandboxReadablePaths): their scripts and their copy of the answers. */
  sandboxReadable: string[];
}

/** The stand-in model `npm run demo` starts, knowing this task's history; the caller closes it. */
export function startDemoTaskModel(task: PreparedTask): Promise<ModelServer> {
  return startDemoModel({ gitDir: oracleLayout(task.oracleDir).upstreamDir, commits: task.commits });
}

/** The settings `npm run demo` writes: the demo's agent plays both roles against the stand-in `model`. */
export function demoSettings(model: ModelServer): Record<string, unknown> {
  return demoAgentSettings(demoModelUrl(model));
}

/** The scripted agents (test/fixtures/agents), run by the demo's settings. */
const SCRIPTED_AGENTS = path.resolve(__dirname, '../../../test/fixtures/agents');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
const datasets: Partial<Record<'plain' | 'docker', Promise<DemoDataset>>> = {};
/** The plain checkout, made once and copied to each scenario (task-copy.ts). */
let checkedOut: Promise<PreparedTask> | undefined;
/** Runs recorded the same way by several scenarios, by key: made once into a copy of the checkout. */
const recorded = new Map<string, Promise<PreparedTask>>();

/**
 * The demo task checked out into a new folder named `name`: on this machine, or (docker: true)
 * from a dataset that ships the demo image, in its container, as the extension's default settings do.
 * On this machine the task is checked out once per tier and copied (the integration tests cover
 * checking out through the command).
 */
export async function prepareDemoTask(name: string, opts: { docker?: boolean } = {}): Promise<PreparedTask> {
  if (opts.docker) return checkOutDemoTask(name, { docker: true });
  return copyPrepared(
    await once(
      () => (checkedOut ??= checkOutDemoTask('checked-out')),
      () => (checkedOut = undefined),
    ),
    name,
  );
}

/**
 * The demo task with runs that several scenarios record alike (`key` names what `record` does):
 * recorded once per tier by the real loop, and copied to each scenario's folder `name`. For the
 * scenarios that show recorded runs, not the ones that test running them.
 */
export async function recordedDemoTask(name: string, key: string, record: (task: PreparedTask) => Promise<void>): Promise<PreparedTask> {
  const made = once(
    () => {
      let template = recorded.get(key);
      if (!template) {
        template = prepareDemoTask(`recorded-${key}`).then(async (task) => {
          await record(task);
          return task;
        });
        recorded.set(key, template);
      }
      return template;
    },
    () => recorded.delete(key),
  );
  return copyPrepared(await made, name);
}

/** `get()`'s promise; a failed one is forgotten (`forget`), so a scenario's retry makes it again. */
function once<T>(get: () => Promise<T>, forget: () => void): Promise<T> {
  const p = get();
  p.catch(forget);
  return p;
}

async function copyPrepared(template: PreparedTask, name: string): Promise<PreparedTask> {
  const from = template.taskDir;
  const to = path.join(scratch, name);
  // A scenario run again (after a failed try) starts from nothing.
  for (const suffix of TASK_SUFFIXES) fs.rmSync(`${to}${suffix}`, { recursive: true, force: true });
  await copyTaskAs(from, to);
  const moved = (p: string) => (p.startsWith(from) ? to + p.slice(from.length) : p);
  // The copy's record names the copy's oracle, or the extension would read the template's.
  const record = JSON.parse(fs.readFileSync(path.join(to, '.sweci', 'task.json'), 'utf8')) as { oracleDir?: string };
  if (record.oracleDir !== moved(template.oracleDir)) throw new Error(`the copy of the demo task in ${to} names the oracle ${record.oracleDir}`);
  return {
    ...template,
    taskDir: to,
    oracleDir: moved(template.oracleDir),
    programmerEnv: Object.fromEntries(Object.entries(template.programmerEnv).map(([k, v]) => [k, moved(v)])),
    sandboxReadable: template.sandboxReadable.map(moved),
  };
}

/** Checks the demo task out into the folder `name` (see prepareDemoTask). */
async function checkOutDemoTask(name: string, opts: { docker?: boolean } = {}): Promise<PreparedTask> {
  const kind = opts.docker ? 'docker' : 'plain';
  // The tier's demo dataset (run.ts's fixture cache: built once, the docker one with the image linked in).
  datasets[kind] ??= demoDatasetFixture(path.join(scratch, `dataset-${kind}`), opts.docker ? { imageArchive: demoImageArchive() } : {});
  const demo = await datasets[kind];
  const spec = (await readDatasetTasks(demo.datasetDir, demo.split)).find((t) => t.id === demo.taskId)!;
  const taskDir = path.join(scratch, name);
  // A scenario run again (after a failed try) starts from nothing.
  for (const suffix of TASK_SUFFIXES) fs.rmSync(`${taskDir}${suffix}`, { recursive: true, force: true });
  const env = await openTaskEnvironment(
    { ...DEFAULT_RUNTIME_SETTINGS, runtime: opts.docker ? 'docker' : 'local' },
    { imageArchive: imageArchiveOf(spec) },
    { hostPython: 'python3' },
  );
  let result;
  try {
    result = await checkOutTask(spec, {
      python: env.python,
      timeoutMs: 600_000,
      format: 'auto',
      task: taskFolder(taskDir),
      oracleDir: path.join(scratch, `${name}.oracle`),
      runtime: env.tests,
      environment: env.record,
      runTests: true,
    });
  } finally {
    await env.dispose();
  }
  if (result.current?.gap !== demo.expectedGap) {
    throw new Error(`the demo task's gap is ${result.current?.gap}, expected ${demo.expectedGap}`);
  }
  const oracleDir = path.join(scratch, `${name}.oracle`);
  const answers = path.join(scratch, `${name}.scripted`, 'answers.git');
  execFileSync('git', ['clone', '--bare', '--quiet', oracleLayout(oracleDir).upstreamDir, answers]);
  return {
    taskDir,
    oracleDir,
    commits: demo.commits,
    expectedGap: demo.expectedGap,
    passedNow: demo.targetPassed - demo.expectedGap,
    passedByTarget: demo.targetPassed,
    programmerEnv: { SWECI_SCRIPTED_UPSTREAM: answers, SWECI_SCRIPTED_COMMITS: demo.commits.join(',') },
    sandboxReadable: [SCRIPTED_AGENTS, path.dirname(answers)],
  };
}
