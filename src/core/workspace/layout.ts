// Paths of a checked-out task folder. Everything a user may open is a file here.
import * as path from 'node:path';

export interface TaskLayout {
  root: string;
  /** `<task>/app`: the only folder an agent (or a container) sees. */
  appDir: string;
  /**
   * `<task>/app/code`: the codebase under evolution, without upstream history. Its `.git` is a
   * working copy of the run's history for agents and people; the record is `historyDir`.
   */
  codeDir: string;
  /** `<task>/app/non-passed`: summary.jsonl and one detail file per test. */
  nonPassedDir: string;
  summaryFile: string;
  requirementFile: string;
  /** A task sequence's agent memory, carried from task to task when memory is on (else absent). */
  memoryDir: string;
  /** `<task>/.sweci`: the extension's own state. */
  sweciDir: string;
  taskFile: string;
  /**
   * `.sweci/history.git`: the bare repository that holds app/code's history (every run's
   * branch); app/code is its work tree. Only the harness writes it (history-store.ts).
   */
  historyDir: string;
  /**
   * `.sweci/scoring/code`: a clean checkout of the iteration's commit, which the loop's pytest
   * runs on (hidden bytecode or untracked files in app/code never count).
   */
  scoringCodeDir: string;
  /** Where app/code/.git is built before it is moved in (working-repo.ts). */
  workingGitStaging: string;
  /** `.sweci/discard`: harness folders' old contents, moved aside and deleted in the background (util/discard.ts). */
  discardDir: string;
  /** `.sweci/environment.json`: where the task's tests run (runtime, image). */
  environmentFile: string;
  /** Reports of the current code's pytest runs. */
  reportsDir: string;
  /** `.sweci/agent-home/<role>`: the private home of the agent try that runs now (agent-home.ts). */
  agentHomeDir: string;
}

/**
 * `dir` + names, as path.join gives them, when `dir` is already normalized (a path.join or
 * path.resolve result) and each name is one plain segment: without normalizing again, which
 * made most of a task folder's cost at an experiment's thousands of tasks.
 */
export function under(dir: string, ...names: string[]): string {
  return (dir.endsWith(path.sep) ? dir : dir + path.sep) + names.join(path.sep);
}

/** A name path.join would keep as it is: one segment, not `.` or `..`, no separator. */
function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes(path.sep);
}

/**
 * path.join(dir, name) for a normalized `dir`: a plain name (a folder listing's, nearly always) is
 * appended without path.join's normalizing pass (an experiment's look joins thousands).
 */
export function joinName(dir: string, name: string): string {
  return isPlainName(name) ? under(dir, name) : path.join(dir, name);
}

/** `<root>/.sweci/task.json`: a task folder's record, which makes a folder a task folder. */
export function taskFileOf(root: string): string {
  return under(root, '.sweci', 'task.json');
}

/**
 * The raw report file pytest writes in `dir` (json-report JSON or JUnit XML), in a folder of its
 * own: that folder holds nothing else, so it is the one folder besides the code a pytest
 * container may see.
 */
export function rawReportFileIn(dir: string): string {
  return under(dir, 'pytest-out', 'raw-report');
}

/**
 * A task folder's paths, each made when it is asked for: an experiment's look makes thousands of
 * task folders and asks each for two or three paths (building all of them up front was a fifth
 * of a warm look's work).
 */
export class TaskPaths implements TaskLayout {
  constructor(readonly root: string) {}
  get appDir(): string {
    return path.join(this.root, 'app');
  }
  get codeDir(): string {
    return under(this.appDir, 'code');
  }
  get nonPassedDir(): string {
    return under(this.appDir, 'non-passed');
  }
  get summaryFile(): string {
    return under(this.appDir, 'non-passed', 'summary.jsonl');
  }
  get requirementFile(): string {
    return under(this.appDir, 'requirement.xml');
  }
  get memoryDir(): string {
    return under(this.appDir, 'memory');
  }
  get sweciDir(): string {
    return path.join(this.root, '.sweci');
  }
  get taskFile(): string {
    return taskFileOf(this.root);
  }
  get historyDir(): string {
    return under(this.sweciDir, 'history.git');
  }
  get scoringCodeDir(): string {
    return under(this.sweciDir, 'scoring', 'code');
  }
  get workingGitStaging(): string {
    return under(this.sweciDir, 'working-git.tmp');
  }
  get discardDir(): string {
    return under(this.sweciDir, 'discard');
  }
  get environmentFile(): string {
    return under(this.sweciDir, 'environment.json');
  }
  get reportsDir(): string {
    return under(this.sweciDir, 'reports');
  }
  get agentHomeDir(): string {
    return under(this.sweciDir, 'agent-home');
  }
}

export function taskLayout(root: string): TaskLayout {
  return Object.freeze(new TaskPaths(root));
}

/** The oracle: target code and its report, kept outside the workspace. */
export interface OracleLayout {
  root: string;
  /** The target's code (no .git), used to run the target's tests and to restore `tests/`. */
  targetCodeDir: string;
  /** The target's tests/ folder, copied from the target; restored into app/code before each run. */
  targetTestsDir: string;
  /** Our TestReport of the target run (JSON). */
  targetReportFile: string;
  /** The upstream repository (with history), used for human-history replays. */
  upstreamDir: string;
  /**
   * `oracle.json`: written last when the oracle is complete; names the task and full shas it
   * belongs to, so a second checkout of the same task can reuse it.
   */
  markerFile: string;
}

export function oracleLayout(root: string): OracleLayout {
  return {
    root,
    targetCodeDir: path.join(root, 'target', 'code'),
    targetTestsDir: path.join(root, 'target', 'code', 'tests'),
    targetReportFile: path.join(root, 'target.report.json'),
    upstreamDir: path.join(root, 'upstream'),
    markerFile: path.join(root, 'oracle.json'),
  };
}

/**
 * The upstream repository in the oracle is a bare clone (`upstreamDir` is its git dir) with
 * these refs pinning the task's commits, so history replays can use them by name.
 */
/**
 * Marks a benchmark run's experiment folder (see batch/experiment.ts). Every task folder in it
 * sits beside the others, so what confines one task hides the whole folder.
 */
export const EXPERIMENT_FILE = 'sweci-experiment.json';

export const UPSTREAM_BASE_REF = 'refs/sweci/base';
export const UPSTREAM_TARGET_REF = 'refs/sweci/target';

/** The branch of app/code's fresh repository that holds the base commit. */
export const CODE_BASE_BRANCH = 'main';

export type { TaskRecord } from './task-record-schema';
