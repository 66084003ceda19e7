// One checked-out task folder and every path in it: the layout, each run's folder, the lock,
// the reports. Made once where a task is opened and passed through the core, so no other module
// builds a path of a task by hand.
import * as path from 'node:path';
import { joinName, rawReportFileIn, TaskPaths, under, type TaskLayout } from './layout';

/** `.sweci/runs/<run>/`: run.json, iteration.jsonl, one iter-NNN/ archive per completed iteration, pending/. */
export interface RunLayout {
  run: string;
  dir: string;
  /** run.json */
  runFile: string;
  /** iteration.jsonl */
  iterationsFile: string;
  /** The in-progress iteration's journal and files; renamed to iter-NNN/ when it completes. */
  pendingDir: string;
  /** `lock`: the human-history replay's own lock (it may run beside the loop, not beside itself). */
  lockFile: string;
  /** `iter-NNN`: a completed iteration's archive (run-store.ts's ARCHIVE names its files). */
  iterationDir: (iteration: number) => string;
}

/** `iter-007` for iteration 7: an archive's folder name (three digits at least, so they sort). */
export function iterationDirName(iteration: number): string {
  return `iter-${String(iteration).padStart(3, '0')}`;
}

/** The iteration an archive's folder name stands for; undefined for any other name. */
export function iterationOfDirName(name: string): number | undefined {
  const m = /^iter-(\d{3,})$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** One pytest result kept in `.sweci/reports`: our report, the run record and pytest's own output. */
export interface ReportFiles {
  report: string;
  run: string;
  output: string;
}

export interface TaskFolder extends Readonly<TaskLayout> {
  /** `.sweci/runs`: one folder per run. */
  readonly runsDir: string;
  /** `.sweci/lock`: who writes the task now (lock.ts). */
  readonly lockFile: string;
  /** `.sweci/oversized.pathspec`: files too large to commit, handed to git by path (code-repo.ts). */
  readonly oversizedPathspec: string;
  /** The current code's last pytest run (Refresh and the loop overwrite it). */
  readonly current: Readonly<ReportFiles>;
  /** The base's own pytest run, kept apart from the current one (a run's line 0). */
  readonly base: Readonly<ReportFiles>;
  /**
   * The raw report file pytest writes (json-report JSON or JUnit XML). Its folder holds nothing
   * else: it is the one folder besides the code that a pytest container sees.
   */
  readonly currentRawReportFile: string;
  /** The same for a run of selected tests, apart so it never overwrites the current run's. */
  readonly selectedRawReportFile: string;
  /** A run's paths; `name` is not checked here (run-name.ts does that). */
  run(name: string): RunLayout;
  /** `.sweci/reports/<kind>-<time>`: where an exported report goes unless the user names a folder. */
  exportDir(now?: Date, kind?: 'export' | 'leaderboard'): string;
  /** `.sweci/bytecode-seed`: where earlier versions kept pytest's bytecode seed (now in the user's cache). */
  readonly oldBytecodeSeedDir: string;
}

function reportFiles(dir: string, name: string): Readonly<ReportFiles> {
  return Object.freeze({
    report: under(dir, `${name}.report.json`),
    run: under(dir, `${name}.run.json`),
    output: under(dir, `${name}.pytest-output.txt`),
  });
}

/** A task folder's paths, each made when asked for (layout.ts's TaskPaths says why). */
class Folder extends TaskPaths implements TaskFolder {
  get runsDir(): string {
    return under(this.sweciDir, 'runs');
  }
  get lockFile(): string {
    return under(this.sweciDir, 'lock');
  }
  get oversizedPathspec(): string {
    return under(this.sweciDir, 'oversized.pathspec');
  }
  get current(): Readonly<ReportFiles> {
    return reportFiles(this.reportsDir, 'current');
  }
  get base(): Readonly<ReportFiles> {
    return reportFiles(this.reportsDir, 'base');
  }
  get currentRawReportFile(): string {
    return rawReportFileIn(this.reportsDir);
  }
  get selectedRawReportFile(): string {
    return under(this.reportsDir, 'selected-out', 'raw-report');
  }
  get oldBytecodeSeedDir(): string {
    return under(this.sweciDir, 'bytecode-seed');
  }
  run(name: string): RunLayout {
    // The name is joined (it is not checked here); the files under it are plain names.
    const dir = joinName(this.runsDir, name);
    return {
      run: name,
      dir,
      runFile: under(dir, 'run.json'),
      iterationsFile: under(dir, 'iteration.jsonl'),
      pendingDir: under(dir, 'pending'),
      lockFile: under(dir, 'lock'),
      iterationDir: (iteration: number) => under(dir, iterationDirName(iteration)),
    };
  }
  exportDir(now = new Date(), kind: 'export' | 'leaderboard' = 'export'): string {
    const stamp = now.toISOString().replace(/[:.]/g, '-').replace(/Z$/, '');
    return path.join(this.reportsDir, `${kind}-${stamp}`);
  }
}

/** The task folder at `root`. Reads nothing: the folder may not exist yet (a checkout makes it). */
export function taskFolder(root: string): TaskFolder {
  return Object.freeze(new Folder(root));
}

/** Any task folder's root, for paths that are read relative to it. */
const SOME_ROOT = path.resolve(path.sep, 'task');

/**
 * The path, relative to any task folder and with `/`, of the entry `pick` names: a glob or a
 * relative name from the layout, e.g. `taskRelative((t) => t.run('*').iterationsFile)`.
 */
export function taskRelative(pick: (task: TaskFolder) => string): string {
  const task = taskFolder(SOME_ROOT);
  return path.relative(task.root, pick(task)).split(path.sep).join('/');
}
