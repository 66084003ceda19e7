// One checked-out task folder and every path in it: the layout, each run's folder, the lock,
// the reports. Made once where a task is opened and passed through the core, so no other module
// builds a path of a task by hand.
import * as path from 'node:path';
import { taskLayout, type TaskLayout } from './layout';

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
  /** `.sweci/reports/export-<time>`: where an exported report goes unless the user names a folder. */
  exportDir(now?: Date): string;
}

function reportFiles(dir: string, name: string): Readonly<ReportFiles> {
  return Object.freeze({
    report: path.join(dir, `${name}.report.json`),
    run: path.join(dir, `${name}.run.json`),
    output: path.join(dir, `${name}.pytest-output.txt`),
  });
}

/** The task folder at `root`. Reads nothing: the folder may not exist yet (a checkout makes it). */
export function taskFolder(root: string): TaskFolder {
  const layout = taskLayout(root);
  const runsDir = path.join(layout.sweciDir, 'runs');
  return Object.freeze({
    ...layout,
    runsDir,
    lockFile: path.join(layout.sweciDir, 'lock'),
    oversizedPathspec: path.join(layout.sweciDir, 'oversized.pathspec'),
    current: reportFiles(layout.reportsDir, 'current'),
    base: reportFiles(layout.reportsDir, 'base'),
    currentRawReportFile: path.join(layout.reportsDir, 'pytest-out', 'raw-report'),
    selectedRawReportFile: path.join(layout.reportsDir, 'selected-out', 'raw-report'),
    run(name: string): RunLayout {
      const dir = path.join(runsDir, name);
      return {
        run: name,
        dir,
        runFile: path.join(dir, 'run.json'),
        iterationsFile: path.join(dir, 'iteration.jsonl'),
        pendingDir: path.join(dir, 'pending'),
      };
    },
    exportDir(now = new Date()): string {
      const stamp = now.toISOString().replace(/[:.]/g, '-').replace(/Z$/, '');
      return path.join(layout.reportsDir, `export-${stamp}`);
    },
  });
}
