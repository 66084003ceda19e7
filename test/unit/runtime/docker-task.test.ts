// The demo task in its own Docker environment, through the same core the extension and the CLI
// use, against the real engine: checkout with the image loaded from the task's image.tar.gz,
// iterations, the human history, and agents in containers. Docker's numbers must equal the
// local runtime's on the same task.
import { after, before, describe, test } from 'node:test';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { checkOutTask, type CheckOutResult } from '../../../src/core/checkout/check-out-task';
import { replayHumanHistory } from '../../../src/core/history/replay-history';
import { listUpstreamCommits } from '../../../src/core/history/upstream-commits';
import type { IterationRecord } from '../../../src/core/loop/iteration-record';
import { createRun, runLoop } from '../../../src/core/loop/run-loop';
import { agentRuntimesOf } from '../../../src/core/loop/role-setup';
import { ARCHIVE } from '../../../src/core/loop/run-store';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import { BudgetExhaustedError } from '../../../src/core/gateway/budget';
import { RECORD_CAP_BYTES } from '../../../src/core/gateway/calls-file';
import { readGatewayCalls } from '../../../src/core/records/gateway-call';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { startModelServer } from '../../../scripts/stand-in-model/model-server';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { DEFAULT_RUNTIME_SETTINGS, type RuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { openTaskEnvironment, type TaskEnvironment } from '../../../src/core/runtime/task-environment';
import { readDatasetTasks } from '../../../src/core/task/dataset';
import { imageArchiveOf, type TaskSpec } from '../../../src/core/task/task-spec';
import { readEnvironmentRecord } from '../../../src/core/workspace/environment-record';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { AGENTS_IN_IMAGE, DEMO_IMAGE, buildAgentImage, demoImageArchive, dockerForTests, ourContainers } from '../helpers/docker';
import { AGENTS_DIR, PYTHON, SCRIPTED_DIR, scripted } from '../loop/demo-fixture';

const pytest = { python: PYTHON, timeoutMs: 300_000, format: 'auto' as const };
const docker = (extra: Partial<RuntimeSettings['docker']> = {}): RuntimeSettings => ({
  ...DEFAULT_RUNTIME_SETTINGS,
  runtime: 'docker',
  docker: { ...DEFAULT_RUNTIME_SETTINGS.docker, ...extra },
});

let conn: DockerConnection;
let tmp: string;
let spec: TaskSpec;
let local: CheckOutResult & { taskDir: string };
let env: TaskEnvironment;
let inDocker: CheckOutResult & { taskDir: string };
const envs: TaskEnvironment[] = [];

async function summaryIds(taskDir: string): Promise<string[]> {
  const text = await fs.readFile(taskFolder(taskDir).summaryFile, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { test: string }).test)
    .sort();
}

/** What must not depend on where pytest ran: the counts of each line. */
function counts(r: IterationRecord) {
  const { duration: _d, ...summary } = r.pytest as Record<string, unknown>;
  void _d;
  return { iteration: r.iteration, gap: r.gap, passed: r.passed, target_passed: r.target_passed, regressions: r.regressions, summary };
}

async function copyTask(from: string, name: string): Promise<string> {
  const dest = path.join(tmp, name);
  await fs.cp(from, dest, { recursive: true });
  return dest;
}

function programmerSetup(taskDir: string, upstreamDir: string, commits: string[]): RoleSetup {
  return scripted('programmer.py', {
    env: {
      SWECI_SCRIPTED_UPSTREAM: upstreamDir,
      SWECI_SCRIPTED_COMMITS: commits.join(','),
      SWECI_SCRIPTED_STATE: path.join(SCRIPTED_DIR, `${path.basename(tmp)}-state-${path.basename(taskDir)}`),
    },
  });
}

describe('a SWE-CI task in its Docker environment (real engine)', () => {
  before(async () => {
    conn = await dockerForTests();
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-docker-task-')));
    const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { python: PYTHON, imageArchive: demoImageArchive() });
    [spec] = await readDatasetTasks(demo.datasetDir, 'default');
    const taskDir = path.join(tmp, 'local');
    local = {
      taskDir,
      ...(await checkOutTask(spec, {
        ...pytest,
        task: taskFolder(taskDir),
        oracleDir: path.join(tmp, 'oracle-local'),
        runtime: new LocalRuntime(),
        runTests: true,
      })),
    };
  });

  after(async () => {
    for (const e of envs) await e.dispose();
    assert.deepEqual(await ourContainers(conn), [], 'no container of ours may remain');
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('checkout loads the task image from image.tar.gz once, then the baseline runs in it with the same non-passed set as locally', async () => {
    assert.equal(spec.source.kind === 'dataset' && spec.source.imagePath !== undefined, true, 'the demo dataset ships image.tar.gz');
    // Make the engine forget the image, so the archive is really loaded (when no container holds it).
    const loaded = await conn.docker
      .getImage(DEMO_IMAGE)
      .remove()
      .then(
        () => true,
        () => false,
      );
    const progress: string[] = [];
    env = await openTaskEnvironment(
      docker(),
      { imageArchive: imageArchiveOf(spec) },
      {
        hostPython: PYTHON,
        onProgress: (m) => progress.push(m),
      },
    );
    envs.push(env);
    if (loaded)
      assert.ok(
        progress.some((m) => m.startsWith('Loading the task image (') && m.includes(') into Docker')),
        progress.join('\n'),
      );
    assert.equal(env.record.runtime, 'docker');
    assert.equal(env.record.image, DEMO_IMAGE);
    assert.match(env.record.imageId ?? '', /^sha256:[0-9a-f]{64}$/);
    assert.equal(env.tests.kind, 'docker');
    assert.equal(env.python, 'python');

    const taskDir = path.join(tmp, 'docker');
    inDocker = {
      taskDir,
      ...(await checkOutTask(spec, {
        ...pytest,
        python: env.python,
        task: taskFolder(taskDir),
        oracleDir: path.join(tmp, 'oracle-docker'),
        runtime: env.tests,
        environment: env.record,
        runTests: true,
      })),
    };
    assert.equal(inDocker.current?.run.kind, 'ran', inDocker.current?.run.reason);
    assert.match(inDocker.current?.run.command ?? '', /^python -m pytest tests .*--rootdir=\/app\/code/);
    assert.equal(inDocker.current?.gap, local.current?.gap);
    assert.equal(inDocker.current?.gap, spec.expectedGap);
    assert.deepEqual(await summaryIds(taskDir), await summaryIds(local.taskDir));
    assert.equal((await readEnvironmentRecord(taskFolder(taskDir)))?.runtime, 'docker');
    // What pytest wrote through the mount belongs to the host user.
    const st = await fs.stat(path.join(taskFolder(taskDir).reportsDir, 'pytest-out', 'raw-report'));
    assert.equal(st.uid, process.getuid?.());

    const again: string[] = [];
    const second = await openTaskEnvironment(
      docker(),
      { imageArchive: imageArchiveOf(spec) },
      {
        hostPython: PYTHON,
        onProgress: (m) => again.push(m),
      },
    );
    envs.push(second);
    assert.equal(
      again.some((m) => m.startsWith('Loading')),
      false,
      'an image the engine has is not loaded again',
    );

    // What checkout learnt from the archive is kept with the image id: a later run (an iteration,
    // a resume) does not read the archive again while the file and the engine's image are unchanged.
    const recorded = await readEnvironmentRecord(taskFolder(taskDir));
    const archiveFile = imageArchiveOf(spec) ?? assert.fail('no archive');
    const archiveStat = await fs.stat(archiveFile);
    assert.deepEqual(recorded?.archive, { path: archiveFile, size: archiveStat.size, mtimeMs: archiveStat.mtimeMs });
    const openWith = async (rec: typeof recorded) => {
      const seen: string[] = [];
      const e = await openTaskEnvironment(docker(), { imageArchive: archiveFile, recorded: rec }, { hostPython: PYTHON, onProgress: (m) => seen.push(m) });
      envs.push(e);
      assert.equal(e.record.imageId, recorded?.imageId);
      return seen;
    };
    assert.deepEqual(await openWith(recorded), [], 'the archive is not read again');
    assert.ok(recorded?.archive);
    const touched = { ...recorded, archive: { ...recorded.archive, mtimeMs: recorded.archive.mtimeMs - 1000 } };
    const LOOKING_FOR_IMAGE = 'Looking for the image SWE-CI loaded from the task image archive';
    // The record no longer holds: the engine is asked again (by the label of the file it came from), not trusted.
    assert.ok((await openWith(touched)).includes(LOOKING_FOR_IMAGE), 'a changed archive is looked up again');
    assert.ok(
      (await openWith({ ...recorded, imageId: `sha256:${'0'.repeat(64)}` })).includes(LOOKING_FOR_IMAGE),
      'an image the engine no longer has under that id: looked up again',
    );
  });

  test('iterations with scripted agents record the same counts in Docker as locally', async () => {
    const oracleUpstream = oracleLayout(local.record.oracleDir).upstreamDir;
    const commits = (await listUpstreamCommits(oracleUpstream)).map((c) => c.sha);
    // The scripted programmer's own copy of the answers: a sandboxed agent cannot see the oracle.
    // (In the folder the sandbox shows the scripted agents, as a user shows a custom agent its files.)
    const upstream = path.join(SCRIPTED_DIR, `${path.basename(tmp)}-answers.git`);
    await fs.rm(upstream, { recursive: true, force: true });
    await fs.mkdir(SCRIPTED_DIR, { recursive: true });
    await promisify(execFile)('git', ['clone', '--bare', '--quiet', oracleUpstream, upstream]);
    const runOn = async (taskDir: string, runtime: TaskEnvironment['tests'], python: string): Promise<IterationRecord[]> => {
      const roles = { architect: scripted('architect.py'), programmer: programmerSetup(taskDir, upstream, commits) };
      const opts = { task: taskFolder(taskDir), run: 'scripted', roles, runtime, pytest: { ...pytest, python } };
      await createRun(opts);
      return (await runLoop({ ...opts, iterations: 3 })).recorded;
    };
    const dockerTask = await copyTask(inDocker.taskDir, 'docker-loop');
    const localTask = await copyTask(local.taskDir, 'local-loop');
    const inContainer = await runOn(dockerTask, env.tests, env.python);
    const onHost = await runOn(localTask, new LocalRuntime(), PYTHON);
    assert.equal(inContainer.length, 3);
    assert.ok(
      inContainer.every((r) => r.gap >= 0),
      'pytest ran in every iteration',
    );
    assert.ok(inContainer[2].gap < inContainer[0].gap, 'the scripted programmer made progress');
    assert.deepEqual(inContainer.map(counts), onHost.map(counts));
  });

  test('Record Human History in Docker gives the same lines as locally', async () => {
    const dockerTask = await copyTask(inDocker.taskDir, 'docker-history');
    const localTask = await copyTask(local.taskDir, 'local-history');
    const inContainer = await replayHumanHistory({ ...pytest, python: env.python, task: taskFolder(dockerTask), runtime: env.tests, count: 'all' });
    const onHost = await replayHumanHistory({ ...pytest, task: taskFolder(localTask), runtime: new LocalRuntime(), count: 'all' });
    assert.ok(inContainer.records.length >= 10);
    assert.equal(inContainer.records[inContainer.records.length - 1].gap, 0, 'the target passes its own tests');
    assert.deepEqual(inContainer.records.map(counts), onHost.records.map(counts));
  });

  test('an agent in a container works with the /app paths, and cannot read the oracle, the dataset or the task records', async () => {
    await buildAgentImage(conn, AGENTS_DIR);
    const agentEnv = await openTaskEnvironment(docker({ agentImage: 'sweci/demo-agents:test' }), { recorded: env.record }, { hostPython: PYTHON });
    envs.push(agentEnv);
    const taskDir = await copyTask(inDocker.taskDir, 'docker-agents');
    const secret = [
      local.record.oracleDir,
      oracleLayout(inDocker.record.oracleDir).targetReportFile,
      spec.source.kind === 'dataset' ? spec.source.zipPath : '',
      taskFolder(taskDir).taskFile,
      path.join(taskDir, '.sweci'),
    ];
    const inside = (script: string, extra: Partial<AgentSettings> = {}): RoleSetup => ({
      settings: {
        kind: 'custom',
        command: `python ${AGENTS_IN_IMAGE}/${script}`,
        promptVia: 'stdin',
        runIn: 'container',
        timeoutSec: 120,
        maxTries: 1,
        ...extra,
      } as AgentSettings,
    });
    const roles = {
      architect: inside('architect.py'),
      programmer: inside('snoop.py', { env: { SWECI_SNOOP_PATHS: secret.join(path.delimiter) } }),
    };
    const opts = {
      task: taskFolder(taskDir),
      run: 'contained',
      roles,
      runtime: agentEnv.tests,
      agentRuntimes: { host: agentEnv.host, container: agentEnv.agents },
      pytest: { ...pytest, python: agentEnv.python },
    };
    await createRun(opts);
    const result = await runLoop({ ...opts, iterations: 1 });
    assert.equal(result.recorded.length, 1);
    const iter = path.join(taskDir, '.sweci', 'runs', 'contained', 'iter-001');
    // The architect found /app/non-passed/summary.jsonl from its prompt and wrote /app/requirement.xml.
    const architectPrompt = await fs.readFile(path.join(iter, 'architect.prompt.md'), 'utf8');
    assert.match(architectPrompt, /`\/app\/non-passed\/summary\.jsonl`/);
    assert.doesNotMatch(architectPrompt, new RegExp(tmp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(await fs.readFile(path.join(iter, 'requirement.xml'), 'utf8'), /<requirements>/);
    const log = await fs.readFile(path.join(iter, 'programmer-try-1.log'), 'utf8');
    for (const p of secret) assert.match(log, new RegExp(`unreadable: ${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`), `the agent could read ${p}:\n${log}`);
    assert.doesNotMatch(log, /^readable: /m);
    assert.doesNotMatch(log, /^found: /m, 'the agent found an oracle, dataset or task file');
  });

  test('a flood of 4 MB calls from an agent in a container stops at sweci.agents.maxCallsBytesPerTry, as on this machine: budget-exhausted, the record whole', async () => {
    await buildAgentImage(conn, AGENTS_DIR);
    const agentEnv = await openTaskEnvironment(docker({ agentImage: 'sweci/demo-agents:test' }), { recorded: env.record }, { hostPython: PYTHON });
    envs.push(agentEnv);
    const key = 'sk-sweci-docker-flood-0123456789';
    // Every answer is 1 MB: with the 2 MB prompt, a calls line of about 4 MB.
    const server = await startModelServer({
      brain: () => ({ actions: [{ kind: 'text', text: 'x'.repeat(1_000_000) }], usage: { input: 10, cachedInput: 0, output: 10 } }),
      adapters: [chatCompletionsAdapter],
      requireKey: key,
    });
    try {
      const settings = {
        kind: 'custom',
        command: `python ${AGENTS_IN_IMAGE}/flood.py`,
        promptVia: 'stdin',
        runIn: 'container',
        baseUrl: `${server.origin}/v1`,
        model: 'm',
        timeoutSec: 600,
        maxTries: 1,
      } as AgentSettings;
      // Default settings: the gateway's bounds as a user gets them.
      const runtimes = agentRuntimesOf(agentEnv, DEFAULT_MODEL_ACCESS);
      const flooder = (role: 'architect' | 'programmer'): RoleSetup => ({
        settings,
        driver: createDriver(settings, runtimes, role),
        secretEnv: { SWECI_API_KEY: key },
      });
      const taskDir = await copyTask(inDocker.taskDir, 'docker-flood');
      const opts = {
        task: taskFolder(taskDir),
        run: 'flood',
        roles: { architect: flooder('architect'), programmer: flooder('programmer') },
        runtime: agentEnv.tests,
        agentRuntimes: runtimes,
        pytest: { ...pytest, python: agentEnv.python },
      };
      await createRun(opts);
      const error = await runLoop({ ...opts, iterations: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof BudgetExhaustedError, String(error));
      assert.match(error.message, /budget exhausted: calls record per try \(268435456 bytes\)/);
      const file = path.join(taskFolder(taskDir).run('flood').pendingDir, ARCHIVE.agentCalls('architect', 1));
      const text = await fs.readFile(file, 'utf8');
      assert.ok(text.endsWith('\n'), 'the record ends with a whole line');
      const calls = await readGatewayCalls(file);
      const size = Buffer.byteLength(text);
      assert.ok(size >= DEFAULT_MODEL_ACCESS.maxCallsBytesPerTry, `${size} bytes: the bound was reached`);
      assert.ok(
        size < DEFAULT_MODEL_ACCESS.maxCallsBytesPerTry + RECORD_CAP_BYTES + 64 * 1024,
        `${size} bytes: one line past the bound, and one small refusal`,
      );
      assert.equal(calls[calls.length - 1].refused, 'budget exhausted: calls record per try (268435456 bytes)', 'the refused call is the last line');
    } finally {
      await server.close();
    }
  });
});
