// From what a user names (a leaderboard.json and/or experiment folders, `folder#run` for another
// run) to the record: the one path `sweci leaderboard` and the editor's Leaderboard panel share.
import * as path from 'node:path';
import type { ScoringRules } from '../../shared/metrics/scored-line';
import { UserError } from '../util/errors';
import { buildLeaderboard, DEFAULT_GAMMAS, DEFAULT_RESAMPLES } from './build-leaderboard';
import { parseRunArgument, readLeaderboardFile, resolveRuns, type RunArgument } from './leaderboard-inputs';
import { sharedReads } from './run-task-scores';
import type { LeaderboardRecord, TasksPolicy } from '../../shared/leaderboard-record';

export interface LeaderboardSource {
  /** A leaderboard.json; its entries name the experiments. */
  file?: string;
  /** Experiment folders, `folder#run` for another run than the experiment's own. */
  experiments: readonly string[];
  /** One human-history entry per dataset where an experiment holds one. */
  withHuman?: boolean;
}

export interface ComputeOptions {
  gammas?: readonly string[];
  resamples?: number;
  seed?: number;
  tasksPolicy?: TasksPolicy;
  maxEpoch?: number;
  scoring?: ScoringRules;
}

export async function computeLeaderboard(source: LeaderboardSource, opts: ComputeOptions = {}): Promise<LeaderboardRecord> {
  const requests: RunArgument[] = [...(source.file ? await readLeaderboardFile(path.resolve(source.file)) : []), ...source.experiments.map(parseRunArgument)];
  if (requests.length === 0)
    throw new UserError('A leaderboard needs experiments: give experiment folders (experiment#run for another run) or a leaderboard.json.');
  // One look: the experiments' summary caches that say which runs exist are the ones the scores are read through.
  const shared = sharedReads();
  const runs = await resolveRuns(requests, !!source.withHuman, shared.caches);
  return buildLeaderboard(runs, {
    shared,
    gammas: opts.gammas ?? DEFAULT_GAMMAS,
    resamples: opts.resamples ?? DEFAULT_RESAMPLES,
    seed: opts.seed ?? 0,
    tasksPolicy: opts.tasksPolicy ?? 'common',
    ...(opts.maxEpoch !== undefined ? { maxEpoch: opts.maxEpoch } : {}),
    scoring: opts.scoring ?? {},
  });
}
