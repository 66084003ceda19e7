// npm run demo: the demo task checked out and open in a real VS Code with this extension.
// Desktop VS Code (`code` on PATH) when there is one, else code-server on localhost.
//   node out/scripts/demo.js [--port N] [--code-server] [--dir FOLDER]
// --dir: where the dataset, the task and the editor's state live (default .vscode-test/demo).
// Stopped with Ctrl-C (or SIGTERM, SIGHUP), it stops code-server and removes the containers
// the editor had started.
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

  writeDemoAgentSettings(taskDir, path.join(demoDir, 'oracle'), path.join(demoDir, 'scripted', 'answers.git'));

  const desktop = !values['code-server'] && hasDesktopCode();
  if (desktop) {
    console.error(`Opening ${taskDir} in VS Code with the extension under development…`);
    const r = spawnSync('code', ['--new-window', `--extensionDevelopmentPath=${root}`, taskDir], { stdio: 'inherit' });
    process.exitCode = r.status ?? 1;
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
}

/**
 * The demo works without an API key: its workspace settings make the scripted stand-in agents
 * of the test suite play both roles. They are not real agents — the Programmer replays the
 * developers' next commit from the oracle — so the loop can be watched end to end. Pick a
 * real agent in the settings (sweci.architect.agent / sweci.programmer.agent) to replace them.
 * Agents run sandboxed and cannot read the oracle, so the stand-in gets its own copy of the
 * upstream history (`answersDir`), outside the oracle: a test device, never given to a real agent.
 * The sandbox shows them their scripts and that copy (sweci.sandboxReadablePaths), nothing else.
 */
function writeDemoAgentSettings(taskDir: string, oracleDir: string, answersDir: string): void {
  const file = path.join(taskDir, '.vscode', 'settings.json');
  if (fs.existsSync(file)) return; // the user's own choices win
  const agents = path.join(root, 'test', 'fixtures', 'agents');
  const upstream = path.join(oracleDir, 'upstream');
  const git = (...args: string[]) => spawnSync('git', ['--git-dir', upstream, ...args], { encoding: 'utf8' });
  const base = git('rev-parse', 'refs/sweci/base');
  const after = git('rev-list', '--first-parent', '--reverse', 'refs/sweci/base..refs/sweci/target');
  if (base.status !== 0 || after.status !== 0) return;
  const commits = [base.stdout.trim(), ...after.stdout.trim().split('\n').filter(Boolean)];
  if (!fs.existsSync(answersDir) && spawnSync('git', ['clone', '--bare', '--quiet', upstream, answersDir]).status !== 0) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const settings = {
    'sweci.architect.agent': 'custom',
    'sweci.architect.customCommand': `python3 ${JSON.stringify(path.join(agents, 'architect.py'))}`,
    'sweci.programmer.agent': 'custom',
    'sweci.programmer.customCommand': `python3 ${JSON.stringify(path.join(agents, 'programmer.py'))}`,
    'sweci.programmer.env': { SWECI_SCRIPTED_UPSTREAM: answersDir, SWECI_SCRIPTED_COMMITS: commits.join(',') },
    // The sandbox shows an agent only what it is given: the stand-ins' scripts and their copy.
    'sweci.sandboxReadablePaths': [agents, path.dirname(answersDir)],
  };
  fs.writeFileSync(file, `// Demo only: scripted stand-in agents (see README, "The demo's agents").\n${JSON.stringify(settings, null, 2)}\n`);
  console.error(`Demo agents: scripted stand-ins configured in ${file}`);
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
