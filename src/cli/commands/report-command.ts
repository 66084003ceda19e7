// sweci report: the same self-contained HTML report as the extension's Export Report, for one
// task folder or for every task of an experiment (with an index that drills down per task).
import { scoringRulesOf } from './scoring-options';
import { plural } from '../../core/util/plural';
import { taskFolder } from '../../core/workspace/task-folder';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { requireExperiment } from '../../core/batch/experiment';
import { writeExperimentReport } from '../../core/report/experiment-report';
import { writeReport } from '../../core/report/export-report';
import { UserError } from '../../core/util/errors';
import { readTaskRecord } from '../../core/workspace/materialize';
import { writeLeaderboardReport } from '../../core/report/leaderboard-html';
import { parseRunArgument } from '../../core/leaderboard/leaderboard-inputs';
import { leaderboardRecordFor, type LeaderboardValues } from './leaderboard-command';
import { parseGammas } from './summarize-command';

export interface ReportValues extends LeaderboardValues {
  out?: string;
  leaderboard?: boolean;
}

/** The flags that only --leaderboard reads, as commander names them and as the user typed them. */
const LEADERBOARD_ONLY = [
  ['file', '--file'],
  ['withHuman', '--with-human'],
  ['bootstrap', '--bootstrap'],
  ['seed', '--seed'],
  ['tasksPolicy', '--tasks-policy'],
] as const;

/** The package folder holding dist/webview.js and media/chart.css (bundled CLI or compiled sources). */
export function assetRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'media', 'chart.css')) && existsSync(path.join(dir, 'dist', 'webview.js'))) return dir;
    if (path.dirname(dir) === dir) throw new UserError('The chart bundle (dist/webview.js) is missing: run "npm run build" first.');
  }
}

/** sweci report --leaderboard: the leaderboard as sweci leaderboard computes it, written as leaderboard.html, .json and .csv. */
async function leaderboardReport(dirs: readonly string[], values: ReportValues & { out: string }): Promise<number> {
  const record = await leaderboardRecordFor(dirs, values);
  const out = await writeLeaderboardReport({ record, folder: path.resolve(values.out), assetRoot: assetRoot() });
  console.log(`wrote ${out.html} (${record.entries.length} entries), ${path.basename(out.json)} and ${path.basename(out.csv)}`);
  return 0;
}

/** A new folder in `base`'s reports folder named `kind`-<time>, where a report goes without -o (as the extension's Export Report). */
function defaultOut(base: string, kind: 'export' | 'leaderboard', now = new Date()): string {
  return taskFolder(path.resolve(base)).exportDir(now, kind);
}

export async function reportCommand(dirs: readonly string[], values: ReportValues): Promise<number> {
  if (values.leaderboard) {
    // Without -o: beside leaderboard.json, else in the first experiment ranked.
    const base = values.file ? path.dirname(values.file) : dirs[0] ? parseRunArgument(dirs[0]).experiment : undefined;
    if (!values.out && !base) throw new UserError('report --leaderboard needs the experiments to rank (or --file leaderboard.json).');
    return leaderboardReport(dirs, { ...values, out: values.out ?? defaultOut(base!, 'leaderboard') });
  }
  const stray = LEADERBOARD_ONLY.find(([key]) => values[key] !== undefined);
  if (stray) throw new UserError(`${stray[1]} is a leaderboard option: add --leaderboard to write the leaderboard, or leave ${stray[1]} out.`);
  if (dirs.length !== 1)
    throw new UserError(
      dirs.length === 0
        ? 'report needs an experiment folder or a task folder.'
        : `report writes one experiment's or one task's report, and got ${dirs.length} folders: give one, or add --leaderboard to rank them together.`,
    );
  const dir = dirs[0];
  const [gamma, ...more] = [1, ...parseGammas(values.gamma)];
  const maxEpoch = values.maxEpoch === undefined ? undefined : Number(values.maxEpoch);
  if (maxEpoch !== undefined && (!Number.isInteger(maxEpoch) || maxEpoch < 1))
    throw new UserError(`--max-epoch must be a whole number of 1 or more, not "${values.maxEpoch}".`);
  const source = path.resolve(dir);
  const task = taskFolder(source);
  // Without -o: the task's or the experiment's own .sweci/reports/.
  const folder = path.resolve(values.out ?? defaultOut(source, 'export'));
  if (await readTaskRecord(task)) {
    const out = await writeReport({
      task,
      folder,
      extensionRoot: assetRoot(),
      gamma,
      title: `${path.basename(source)} · SWE-CI`,
      scoring: scoringRulesOf(values),
    });
    console.log(`wrote ${out.html}`);
    return 0;
  }
  // Not a task folder: it must be an experiment (an empty index of nothing helps no one).
  await requireExperiment(source);
  const result = await writeExperimentReport({
    experimentDir: source,
    folder,
    assetRoot: assetRoot(),
    gamma,
    gammas: more,
    ...(maxEpoch ? { maxEpoch } : {}),
    scoring: scoringRulesOf(values),
    onProgress: (m) => console.error(`… ${m}`),
  });
  console.log(`wrote ${result.index} (${plural(result.tasks.length, 'task report')})`);
  return 0;
}
