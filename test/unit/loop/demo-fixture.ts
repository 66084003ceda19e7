// The real demo task (scripts/demo-dataset.ts) checked out once per test file, then copied for
// each test (a copy is a complete task: its task.json points at the shared, read-only oracle).
import { execFile } from 'node:child_process';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { createDriver } from '../../../src/core/agents/cli-driver';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { checkOutTask } from '../../../src/core/checkout/check-out-task';
import { listUpstreamCommits } from '../../../src/core/history/upstream-commits';
import type { LoopOptions, RoleSetup } from '../../../src/core/loop/loop-types';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { oracleLayout, type TaskRecord } from '../../../src/core/workspace/layout';
import { findTrustedProgram } from '../../../src/core/util/trusted-program';
import { fixturesDir } from '../helpers/repo-root';

const run = promisify(execFile);

export const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
/**
 * Agents and pytest run confined, as users get them (bubblewrap, installed by scripts/setup.sh,
 * found as the product finds it); SWECI_TEST_SANDBOX=off runs the same tests without it, and the
 * security tests then fail (helpers/require-sandbox.ts).
 */
export const SANDBOX = process.env.SWECI_TEST_SANDBOX !== 'off' ? findTrustedProgram('bwrap') : undefined;
export const AGENTS_DIR = path.join(fixturesDir, 'agents');
/**
 * What the scripted agents use outside app/, shown to them as a user shows a custom agent its
 * files (sweci.sandboxReadablePaths, sweci.sandboxWritablePaths): their scripts, and a folder of
 * this process's with their copies of the answers and their counters.
 */
export const SCRIPTED_DIR = path.join(os.tmpdir(), `sweci-scripted-${process.pid}`);
// Removed with the process (a file's own tests may use it to the end); it was left behind before.
process.once('exit', () => rmSync(SCRIPTED_DIR, { recursive: true, force: true }));
export const runtime = new LocalRuntime({ orphanGraceMs: 500, bwrap: SANDBOX, readable: [AGENTS_DIR], writable: [SCRIPTED_DIR] });
export const pytestSettings = { python: PYTHON, timeoutMs: 120_000, format: 'junit' as const };

export interface DemoTask {
  taskDir: string;
  record: TaskRecord;
  upstreamDir: string;
  /** A copy of the upstream outside the oracle, for the scripted programmer (a sandbox hides the oracle). */
  answersDir: string;
  /** First-parent commits, base first, target last. */
  commits: string[];
}

export class DemoWorld {
  private n = 0;
  private constructor(
    readonly tmp: string,
    private readonly pristine: DemoTask,
  ) {}

  static async create(label: string): Promise<DemoWorld> {
    const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `sweci-${label}-`)));
    const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { python: PYTHON });
    const [spec] = await readDatasetTasks(demo.datasetDir, 'default');
    const taskDir = path.join(tmp, 'pristine');
    const result = await checkOutTask(spec, {
      ...pytestSettings,
      task: taskFolder(taskDir),
      oracleDir: path.join(tmp, 'oracle'),
      runtime,
      runTests: true,
    });
    const upstreamDir = oracleLayout(result.record.oracleDir).upstreamDir;
    const commits = (await listUpstreamCommits(upstreamDir)).map((c) => c.sha);
    // The scripted programmer knows the answers from its own copy: the oracle is hidden from agents.
    await fs.mkdir(SCRIPTED_DIR, { recursive: true });
    const answersDir = await fs.mkdtemp(path.join(SCRIPTED_DIR, `${label}-answers-`));
    await run('git', ['clone', '--bare', '--quiet', upstreamDir, answersDir]);
    return new DemoWorld(tmp, { taskDir, record: result.record, upstreamDir, answersDir, commits });
  }

  /** A fresh copy of the checked-out task. */
  async task(name = 'task'): Promise<DemoTask> {
    const taskDir = path.join(this.tmp, `${name}-${++this.n}`);
    await run('cp', ['-a', this.pristine.taskDir, taskDir]);
    return { ...this.pristine, taskDir };
  }

  /** A scratch path outside every task folder. */
  scratch(name: string): string {
    return path.join(this.tmp, `${name}-${++this.n}`);
  }

  /** A path the scripted agents may write (a counter), outside every task folder. */
  scriptedPath(name: string): string {
    return path.join(SCRIPTED_DIR, `${path.basename(this.tmp)}-${name}-${++this.n}`);
  }

  async dispose(): Promise<void> {
    await fs.rm(this.tmp, { recursive: true, force: true });
    await fs.rm(this.pristine.answersDir, { recursive: true, force: true });
  }
}

export interface ScriptOptions {
  env?: Record<string, string>;
  timeoutSec?: number;
  maxTries?: number;
  /** Extra words on the command line (a test's process tag). */
  args?: string[];
}

/** A role played by a python script through the real CLI driver (custom command, prompt on stdin). */
export function pythonScript(file: string, extra: ScriptOptions = {}): RoleSetup {
  const settings: AgentSettings = {
    kind: 'custom',
    command: [PYTHON, file, ...(extra.args ?? [])].map((w, i) => (i === 0 ? w : JSON.stringify(w))).join(' '),
    promptVia: 'stdin',
    timeoutSec: extra.timeoutSec ?? 60,
    maxTries: extra.maxTries ?? 2,
    env: extra.env,
  };
  return { settings, driver: createDriver(settings, { host: runtime }) };
}

/** One of the scripted agents in test/fixtures/agents. */
export function scripted(script: string, extra: ScriptOptions = {}): RoleSetup {
  return pythonScript(path.join(AGENTS_DIR, script), extra);
}

/** The scripted programmer's inputs: the oracle's upstream and the first-parent commits. */
export function programmerEnv(task: DemoTask, stateFile?: string): Record<string, string> {
  return {
    SWECI_SCRIPTED_UPSTREAM: task.answersDir,
    SWECI_SCRIPTED_COMMITS: task.commits.join(','),
    ...(stateFile ? { SWECI_SCRIPTED_STATE: stateFile } : {}),
  };
}

export function loopOptions(task: DemoTask, run: string, roles: LoopOptions['roles'], extra: Partial<LoopOptions> = {}): LoopOptions {
  return { task: taskFolder(task.taskDir), run, roles, runtime, pytest: pytestSettings, ...extra };
}

export async function git(dir: string, ...args: string[]): Promise<string> {
  return (await run('git', ['-C', dir, ...args])).stdout;
}

/** git on the task's history store (the record of every run), with app/code as its work tree. */
export async function historyGit(taskDir: string, ...args: string[]): Promise<string> {
  const layout = taskFolder(taskDir);
  return (await run('git', [`--git-dir=${layout.historyDir}`, `--work-tree=${layout.codeDir}`, '-C', layout.codeDir, ...args])).stdout;
}

export async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
