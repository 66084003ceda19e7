// npm run demo: the demo task checked out and open in a real VS Code with this extension.
// Desktop VS Code (`code` on PATH) when there is one, else code-server on localhost.
//   node out/scripts/demo.js [--port N] [--code-server] [--dir FOLDER]
// --dir: where the dataset, the task and the editor's state live (default .vscode-test/demo).
// Its agents' model is a stand-in it starts on 127.0.0.1 (scripts/demo-agents.ts): no key needed.
// Stopped with Ctrl-C (or SIGTERM, SIGHUP), it stops code-server and the stand-in model, and
// removes the containers the editor had started.
// What it prints is progress, for a person: standard error (standard output is for results; it has none).
import { imageArchiveOf } from '../src/core/task/task-spec';
import { taskFolder } from '../src/core/workspace/task-folder';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkOutTask } from '../src/core/checkout/check-out-task';
import { DEFAULT_RUNTIME_SETTINGS } from '../src/core/runtime/runtime-settings';
import { describeEnvironment, openTaskEnvironment } from '../src/core/runtime/task-environment';
import { readDatasetTasks } from '../src/core/task/dataset';
import { readTaskRecord } from '../src/core/workspace/materialize';
import { startCodeServerForUser } from '../test/harness/user';
import { buildDemoDataset, DEMO_TASK_ID } from './demo-dataset';
import { demoSessionEnv, removeDemoContainers } from './demo-containers';
import { DEMO_MODEL, DEMO_SETTINGS_MARK, demoAgentSettings, demoModelUrl, startDemoModel } from './demo-agents';
import type { DemoHistory } from './stand-in-model/demo-brain';
import { demoImageArchive } from './demo-image';

const root = path.resolve(__dirname, '..', '..');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, 'code-server': { type: 'boolean' }, dir: { type: 'string' } } });
  const demoDir = path.resolve(values.dir ?? path.join(root, '.vscode-test', 'demo'));
  const datasetDir = path.join(demoDir, 'dataset');
  const taskDir = path.join(demoDir, DEMO_TASK_ID);

  // The task's environment comes with it when scripts/docker-setup.sh has made the image archive.
  const imageArchive = fs.existsSync(demoImageArchive()) ? demoImageArchive() : undefined;
  const hasImage = fs.existsSync(path.join(datasetDir, 'data', DEMO_TASK_ID, 'image.tar.gz'));
  if (!fs.existsSync(path.join(datasetDir, 'metadata', 'default.csv')) || (imageArchive && !hasImage)) {
    console.error('Building the demo dataset (a small Python library with a real git history)…');
    await buildDemoDataset(datasetDir, { imageArchive });
  }
  if (!(await readTaskRecord(taskFolder(taskDir)))) {
    console.error(`Checking out ${DEMO_TASK_ID} into ${taskDir}…`);
    const spec = (await readDatasetTasks(datasetDir, 'default')).find((t) => t.id === DEMO_TASK_ID)!;
    const python = process.env.SWECI_PYTHON ?? 'python3';
    // As the extension does with its default settings: Docker when the task has an image and an engine answers.
    const env = await openTaskEnvironment(
      DEFAULT_RUNTIME_SETTINGS,
      { imageArchive: imageArchiveOf(spec) },
      { hostPython: python, onProgress: (m) => console.error(`  … ${m}`) },
    );
    try {
      console.error(`  runtime: ${describeEnvironment(env.record)}${env.note ? ` (${env.note})` : ''}`);
      const result = await checkOutTask(spec, {
        python: env.python,
        timeoutMs: 3600_000,
        format: 'auto',
        task: taskFolder(taskDir),
        oracleDir: path.join(demoDir, 'oracle'),
        runtime: env.tests,
        environment: env.record,
        runTests: true,
        onProgress: (m) => console.error(`  … ${m}`),
      });
      console.error(`  gap ${result.current?.gap} (the dataset says ${spec.expectedGap})`);
    } finally {
      await env.dispose();
    }
  }

  // The demo's agents call the stand-in model through the gateway: it runs while the demo does.
  const history = demoHistory(path.join(demoDir, 'oracle'));
  const model = history ? await startDemoModel(history, previousModelPort(taskDir)) : undefined;
  try {
    if (model) writeDemoAgentSettings(taskDir, demoModelUrl(model));
    else console.error("Demo agents: the task's upstream history could not be read; they are not configured.");

    const desktop = !values['code-server'] && hasDesktopCode();
    if (desktop) {
      console.error(`Opening ${taskDir} in VS Code with the extension under development…`);
      const r = spawnSync('code', ['--new-window', `--extensionDevelopmentPath=${root}`, taskDir], { stdio: 'inherit' });
      process.exitCode = r.status ?? 1;
      // VS Code runs on without this process: the stand-in model stays until Ctrl-C.
      if (model && r.status === 0)
        await untilStopped(`The demo's stand-in model answers at ${model.origin}. Press Ctrl-C to stop it (the demo's agents then have no model).`);
      return;
    }
    const session = demoSessionEnv();
    try {
      await startCodeServerForUser({
        folder: taskDir,
        port: values.port ? Number(values.port) : Number(process.env.PORT ?? 8080),
        userDataDir: path.join(demoDir, 'user-data'),
        env: session,
      });
    } finally {
      // code-server's process group is gone: its extension hosts could not remove their containers.
      await removeDemoContainers(session);
    }
  } finally {
    await model?.close();
  }
}

/** The task's upstream history for the stand-in model: the oracle's repository and its first-parent commits base..target. */
function demoHistory(oracleDir: string): DemoHistory | undefined {
  const gitDir = path.join(oracleDir, 'upstream');
  const git = (...args: string[]) => spawnSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' });
  const base = git('rev-parse', 'refs/sweci/base');
  const after = git('rev-list', '--first-parent', '--reverse', 'refs/sweci/base..refs/sweci/target');
  if (base.status !== 0 || after.status !== 0) return undefined;
  return { gitDir, commits: [base.stdout.trim(), ...after.stdout.trim().split('\n').filter(Boolean)] };
}

const settingsFile = (taskDir: string) => path.join(taskDir, '.vscode', 'settings.json');

/** The demo's own settings file (it starts with the demo's mark), parsed; undefined when there is none or it is the user's. */
function demoOwnedSettings(taskDir: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(settingsFile(taskDir), 'utf8');
  } catch {
    return undefined;
  }
  if (!text.startsWith('// Demo only:')) return undefined;
  try {
    const parsed = JSON.parse(text.slice(text.indexOf('\n') + 1)) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Both roles still ask for the stand-in: the base URL in the settings is the demo's to update. */
const asksStandIn = (s: Record<string, unknown>) => s['sweci.architect.model'] === DEMO_MODEL && s['sweci.programmer.model'] === DEMO_MODEL;

/** The port the stand-in had last time (from the demo's settings), so they need no change when it is free. */
function previousModelPort(taskDir: string): number {
  const s = demoOwnedSettings(taskDir);
  const url = s && asksStandIn(s) && typeof s['sweci.agents.baseUrl'] === 'string' ? s['sweci.agents.baseUrl'] : '';
  const port = Number(/^http:\/\/127\.0\.0\.1:(\d+)\/v1$/.exec(url)?.[1] ?? 0);
  return port > 1024 && port < 65536 && portFree(port) ? port : 0;
}

function portFree(port: number): boolean {
  const probe = spawnSync(process.execPath, [
    '-e',
    `require('net').createServer().once('error',()=>process.exit(1)).listen(${port},'127.0.0.1',function(){this.close()})`,
  ]);
  return probe.status === 0;
}

/**
 * The demo works without an API key: its workspace settings make the demo's agent
 * (scripts/demo-agent) play both roles, calling the stand-in model through SWE-CI's gateway. It
 * is not intelligent: the stand-in knows the task's history and has the Programmer write the
 * developers' next commit, so the loop can be watched end to end, with transcripts, cost and
 * replay. Pick a real agent in the settings (sweci.architect.agent / sweci.programmer.agent) to
 * replace it. A settings file of the user's is left as it is; the demo's own (it starts with the
 * mark) gets the stand-in's new address, or is written again when an older demo wrote it.
 */
function writeDemoAgentSettings(taskDir: string, modelUrl: string): void {
  const file = settingsFile(taskDir);
  const owned = demoOwnedSettings(taskDir);
  let settings: Record<string, unknown>;
  if (!fs.existsSync(file)) settings = demoAgentSettings(modelUrl);
  else if (owned && asksStandIn(owned)) {
    if (owned['sweci.agents.baseUrl'] === modelUrl) return;
    settings = { ...owned, 'sweci.agents.baseUrl': modelUrl };
  } else if (owned && !('sweci.architect.model' in owned) && JSON.stringify(owned).includes('test/fixtures/agents')) {
    // An older demo's settings (the scripted stand-ins, no model): the demo's agents replace them.
    settings = demoAgentSettings(modelUrl);
  } else {
    console.error(`Demo agents: ${file} is yours, left as it is (the stand-in model answers at ${modelUrl}).`);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${DEMO_SETTINGS_MARK}\n${JSON.stringify(settings, null, 2)}\n`);
  console.error(`Demo agents: the demo's agent plays both roles, its model the stand-in at ${modelUrl} (${file})`);
}

/** Resolves on Ctrl-C, SIGTERM or SIGHUP, having said `message`. */
function untilStopped(message: string): Promise<void> {
  console.error(message);
  return new Promise((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => resolve());
  });
}

function hasDesktopCode(): boolean {
  const r = spawnSync('code', ['--version'], { encoding: 'utf8' });
  // code-server also answers `code --version` on some machines; desktop VS Code prints a commit line.
  return r.status === 0 && !/code-server/i.test(r.stdout ?? '');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
