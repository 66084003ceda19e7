// Builds a small SWE-CI dataset offline: one task ("tinyinventory") with a real git history from
// base to target, packed like the real dataset (metadata/default.csv + data/<task_id>/code.zip).
// With --batch (or `batch: true`) it adds three smaller tasks, windows of the same history, for
// headless batch runs that need tasks of different sizes.
// Usage: node out/scripts/demo-dataset.js [--batch] [--json] [outDir]   (default .vscode-test/demo-dataset)
// It prints the dataset's folder (with --json, the whole record); progress goes to standard error.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classify, type NonPassedEntry } from '../src/core/gap/non-passed';
import { machineSeedStore } from '../src/core/pytest/bytecode-seed';
import { runPytest } from '../src/core/pytest/run-pytest';
import type { TestReport } from '../src/core/pytest/test-report';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { copyTree } from '../src/core/util/copy-tree';
import { exportTree, pruneTopLevel } from '../src/core/workspace/upstream';
import { DEMO_HISTORY, type DemoCommit } from './demo-dataset/history';

export const DEMO_TASK_ID = 'demo__tinyinventory-0001';
export const DEMO_REPO = 'demo/tinyinventory';
export const DEMO_SPLIT = 'default';

/** A task cut from the demo history: indexes into DEMO_HISTORY (0 = base release). */
export interface DemoTaskWindow {
  taskId: string;
  base: number;
  target: number;
}

/** The one task every dataset holds: the whole history. */
export const DEMO_TASK_WINDOW: DemoTaskWindow = { taskId: DEMO_TASK_ID, base: 0, target: DEMO_HISTORY.length - 1 };

/**
 * The extra tasks of a batch dataset, in CSV order after DEMO_TASK_ID: a short, a middle and a
 * long window (2, 4 and 4 commits, but the later commits add more tests, so the gaps differ).
 */
export const DEMO_BATCH_WINDOWS: readonly DemoTaskWindow[] = [
  { taskId: 'demo__tinyinventory-0002', base: 0, target: 2 },
  { taskId: 'demo__tinyinventory-0003', base: 2, target: 6 },
  { taskId: 'demo__tinyinventory-0004', base: 6, target: 10 },
];

export const DEMO_BATCH_TASK_IDS: readonly string[] = DEMO_BATCH_WINDOWS.map((w) => w.taskId);

export interface DemoNonPassedKinds {
  failed: number;
  errorAtSetup: number;
  errorAtTeardown: number;
  notCollected: number;
  other: number;
}

/** One task of the dataset, as measured while building it. */
export interface DemoTaskInfo {
  taskId: string;
  baseSha: string;
  targetSha: string;
  /** First-parent commits from base to target, both included, oldest first. */
  commits: string[];
  /** Non-passed tests of the base run with the target's tests. */
  expectedGap: number;
  kinds: DemoNonPassedKinds;
  /** Tests the target passes. */
  targetPassed: number;
  /** Target tests the base passes. */
  basePassed: number;
}

export interface DemoDataset {
  datasetDir: string;
  split: 'default';
  taskId: string;
  baseSha: string;
  targetSha: string;
  /** Non-passed tests of the base run with the target's tests, measured while building. */
  expectedGap: number;
  /** Every commit from base to target, oldest first (the "human history"). */
  commits: string[];
  kinds: DemoNonPassedKinds;
  /** Tests the target passes. */
  targetPassed: number;
  /** Target tests the base passes. */
  basePassed: number;
  /** Every task of the dataset in CSV order; the first is the one the fields above describe. */
  tasks: DemoTaskInfo[];
}

export interface BuildDemoOptions {
  /** Python with pytest; default $SWECI_PYTHON or python3. */
  python?: string;
  onProgress?: (message: string) => void;
  /**
   * A task-style image.tar.gz to ship as data/<task_id>/image.tar.gz (hard-linked when it can
   * be, else symlinked: it is 70 MB). Default none: the task then runs on this machine.
   */
  imageArchive?: string;
  /** Also add the DEMO_BATCH_WINDOWS tasks (default false: the one-task dataset). */
  batch?: boolean;
}

// Nothing from the machine's git config may change the shas.
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, GIT_TERMINAL_PROMPT: '0', ...extra };
}

function git(cwd: string, args: string[], extra: Record<string, string> = {}): string {
  return execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    env: gitEnv(extra),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

async function applyCommit(repo: string, commit: DemoCommit): Promise<string> {
  for (const [rel, content] of Object.entries(commit.files)) {
    const file = path.join(repo, rel);
    if (content === null) {
      await fs.rm(file, { force: true });
    } else {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
    }
  }
  git(repo, ['add', '--all']);
  const who = { GIT_AUTHOR_NAME: commit.author.name, GIT_AUTHOR_EMAIL: commit.author.email, GIT_AUTHOR_DATE: commit.date };
  git(repo, ['commit', '--quiet', '--no-verify', '-m', commit.message], {
    ...who,
    GIT_COMMITTER_NAME: commit.author.name,
    GIT_COMMITTER_EMAIL: commit.author.email,
    GIT_COMMITTER_DATE: commit.date,
  });
  return git(repo, ['rev-parse', 'HEAD']);
}

/** Creates the upstream repository in `repo` and returns the commit shas, base first. */
export async function buildDemoRepo(repo: string): Promise<string[]> {
  await fs.mkdir(repo, { recursive: true });
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  const shas: string[] = [];
  for (const commit of DEMO_HISTORY) shas.push(await applyCommit(repo, commit));
  return shas;
}

async function runTests(python: string, codeDir: string, reportFile: string): Promise<{ report: TestReport; exitCode: number }> {
  // With this machine's bytecode seed, as the loop runs pytest: each run would otherwise compile
  // pytest and the standard library into its fresh bytecode folder (about a third of its CPU time).
  const run = await runPytest(new LocalRuntime(), { python, codeDir, reportFile, format: 'auto', timeoutMs: 300_000, bytecodeSeedDir: machineSeedStore() });
  if (run.kind !== 'ran') {
    throw new Error(`The demo's pytest run in ${codeDir} did not complete: ${run.reason}\n${run.output}`);
  }
  return { report: run.report, exitCode: run.exitCode };
}

/** Counts non-passed entries by kind; an error's stage tells setup from teardown. */
export function countKinds(entries: readonly NonPassedEntry[]): DemoNonPassedKinds {
  const kinds: DemoNonPassedKinds = { failed: 0, errorAtSetup: 0, errorAtTeardown: 0, notCollected: 0, other: 0 };
  for (const e of entries) {
    if (e.kind === 'failed') kinds.failed++;
    else if (e.kind === 'not-collected') kinds.notCollected++;
    else if (e.kind === 'error' && e.stage === 'setup') kinds.errorAtSetup++;
    else if (e.kind === 'error' && e.stage === 'teardown') kinds.errorAtTeardown++;
    else kinds.other++;
  }
  return kinds;
}

/**
 * Runs the target's tests on the target and on the base the way a checkout does (the
 * reference's initialisation), so the dataset's test_gap is a measured number, not a guess.
 */
async function measure(repo: string, baseSha: string, targetSha: string, python: string, scratch: string) {
  const gitDir = path.join(repo, '.git');
  const targetCode = path.join(scratch, 'target', 'code');
  await exportTree(gitDir, targetSha, targetCode);
  await pruneTopLevel(targetCode, ['test']);
  const currentCode = path.join(scratch, 'current', 'code');
  await exportTree(gitDir, baseSha, currentCode);
  await pruneTopLevel(currentCode, ['test', 'tests']);
  await copyTree(path.join(targetCode, 'tests'), path.join(currentCode, 'tests'));

  const target = await runTests(python, targetCode, path.join(scratch, 'reports-target', 'report.xml'));
  const failing = target.report.tests.filter((t) => t.outcome !== 'passed').map((t) => t.nodeid);
  if (target.exitCode !== 0 || failing.length > 0) {
    throw new Error(`The demo target must pass all its tests; these did not: ${failing.join(', ') || '(exit code ' + target.exitCode + ')'}`);
  }
  const current = await runTests(python, currentCode, path.join(scratch, 'reports-current', 'report.xml'));
  const entries = classify(current.report, target.report);
  return {
    gap: entries.length,
    kinds: countKinds(entries),
    targetPassed: target.report.tests.length,
    basePassed: current.report.tests.filter((t) => t.outcome === 'passed').length,
  };
}

/** Zips `dir` as `<prefix>/...` (with .git) using python's zipfile: symlinks and modes kept. */
function zipRepo(python: string, dir: string, zipPath: string, prefix: string): void {
  const script = [
    'import os, sys, zipfile',
    'src, out, prefix = sys.argv[1], sys.argv[2], sys.argv[3]',
    'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:',
    '    for base, dirs, files in os.walk(src):',
    '        dirs.sort()',
    '        for name in sorted(files + [d for d in dirs if os.path.islink(os.path.join(base, d))]):',
    '            p = os.path.join(base, name)',
    '            info = zipfile.ZipInfo(prefix + "/" + os.path.relpath(p, src).replace(os.sep, "/"), (2024, 4, 9, 12, 0, 0))',
    '            info.create_system = 3',
    '            info.external_attr = (os.lstat(p).st_mode & 0xFFFF) << 16',
    '            if os.path.islink(p):',
    '                z.writestr(info, os.readlink(p))',
    '            else:',
    '                info.compress_type = zipfile.ZIP_DEFLATED',
    '                with open(p, "rb") as f:',
    '                    z.writestr(info, f.read())',
  ].join('\n');
  execFileSync(python, ['-c', script, dir, zipPath, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** An output folder we may replace: missing, empty, or an earlier demo dataset. */
async function prepareOutDir(outDir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await fs.readdir(outDir);
  } catch {
    await fs.mkdir(outDir, { recursive: true });
    return;
  }
  if (entries.length === 0) return;
  const isDemo = await fs
    .stat(path.join(outDir, 'data', DEMO_TASK_ID, 'code.zip'))
    .then(() => true)
    .catch(() => false);
  if (!isDemo) throw new Error(`${outDir} is not empty and is not a demo dataset; choose another folder.`);
  for (const e of entries) await fs.rm(path.join(outDir, e), { recursive: true, force: true });
}

/** Measures one window of the history; the target must pass all its own tests (measure throws). */
async function measureWindow(repo: string, shas: readonly string[], window: DemoTaskWindow, python: string, scratch: string): Promise<DemoTaskInfo> {
  const baseSha = shas[window.base];
  const targetSha = shas[window.target];
  const measured = await measure(repo, baseSha, targetSha, python, scratch);
  if (measured.gap === 0) throw new Error(`The demo task ${window.taskId} has no gap: its base already passes its target's tests.`);
  return {
    taskId: window.taskId,
    baseSha,
    targetSha,
    commits: shas.slice(window.base, window.target + 1),
    expectedGap: measured.gap,
    kinds: measured.kinds,
    targetPassed: measured.targetPassed,
    basePassed: measured.basePassed,
  };
}

function csvRow(window: DemoTaskWindow, task: DemoTaskInfo): string {
  const row = [
    task.taskId,
    DEMO_REPO,
    task.baseSha,
    task.targetSha,
    DEMO_HISTORY[window.base].date,
    DEMO_HISTORY[window.target].date,
    String(task.expectedGap),
  ];
  return row.map(csvField).join(',');
}

/** Gives `dest` the contents of `source` without copying when the file system allows it. */
async function linkOrCopy(source: string, dest: string): Promise<void> {
  await fs.link(source, dest).catch(() => fs.copyFile(source, dest));
}

export async function buildDemoDataset(outDir: string, options: BuildDemoOptions = {}): Promise<DemoDataset> {
  const python = options.python ?? process.env.SWECI_PYTHON ?? 'python3';
  const progress = options.onProgress ?? (() => undefined);
  const windows = [DEMO_TASK_WINDOW, ...(options.batch ? DEMO_BATCH_WINDOWS : [])];
  const datasetDir = path.resolve(outDir);
  await prepareOutDir(datasetDir);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-demo-'));
  try {
    progress('Writing the tinyinventory history');
    const repo = path.join(scratch, 'tinyinventory');
    const shas = await buildDemoRepo(repo);

    progress(
      windows.length > 1 ? `Measuring the gaps of ${windows.length} tasks (pytest on target and base)` : 'Measuring the gap (pytest on target and base)',
    );
    // Each window exports into its own scratch folder, so the runs may overlap; all of them
    // settle before a failure is reported, so none is still writing when scratch is removed.
    const settled = await Promise.allSettled(windows.map((w) => measureWindow(repo, shas, w, python, path.join(scratch, 'measure', w.taskId))));
    const tasks = settled.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    });

    progress('Packing code.zip');
    const zipPath = path.join(datasetDir, 'data', DEMO_TASK_ID, 'code.zip');
    await fs.mkdir(path.dirname(zipPath), { recursive: true });
    zipRepo(python, repo, zipPath, 'tinyinventory');
    // Every task is the same upstream repository at other commits: one zip, linked.
    for (const task of tasks.slice(1)) {
      const dest = path.join(datasetDir, 'data', task.taskId, 'code.zip');
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await linkOrCopy(zipPath, dest);
    }

    const header = ['task_id', 'repo', 'current_sha', 'target_sha', 'current_date', 'target_date', 'test_gap'];
    const rows = windows.map((w, i) => csvRow(w, tasks[i]));
    await fs.mkdir(path.join(datasetDir, 'metadata'), { recursive: true });
    await fs.writeFile(path.join(datasetDir, 'metadata', `${DEMO_SPLIT}.csv`), `${header.join(',')}\n${rows.map((r) => `${r}\n`).join('')}`);
    if (options.imageArchive) {
      progress('Adding image.tar.gz');
      const source = path.resolve(options.imageArchive);
      for (const task of tasks) {
        const dest = path.join(datasetDir, 'data', task.taskId, 'image.tar.gz');
        await fs.link(source, dest).catch(() => fs.symlink(source, dest));
      }
    }

    const [first] = tasks;
    return {
      datasetDir,
      split: 'default',
      taskId: first.taskId,
      baseSha: first.baseSha,
      targetSha: first.targetSha,
      expectedGap: first.expectedGap,
      commits: first.commits,
      kinds: first.kinds,
      targetPassed: first.targetPassed,
      basePassed: first.basePassed,
      tasks,
    };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Progress and the tasks built go to standard error; standard output holds the result only: the
 * dataset's folder, one line (for `dir=$(…)`), or with --json the whole DemoDataset record.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flags = ['--batch', '--json'];
  const unknown = args.filter((a) => a.startsWith('--') && !flags.includes(a));
  if (unknown.length > 0) throw new Error(`Unknown option ${unknown.join(', ')}. Usage: demo-dataset.js [--batch] [--json] [outDir]`);
  const outDir = args.find((a) => !a.startsWith('--')) ?? path.join('.vscode-test', 'demo-dataset');
  const result = await buildDemoDataset(outDir, { batch: args.includes('--batch'), onProgress: (m) => console.error(`… ${m}`) });
  for (const t of result.tasks) console.error(`  ${t.taskId}: gap ${t.expectedGap}, ${t.commits.length - 1} developer commits`);
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(result, null, 2)}\n` : `${path.resolve(result.datasetDir)}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
