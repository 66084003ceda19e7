// Where the Leaderboard panel's record comes from: the experiment folders the user picked, or the
// workspace's leaderboard.json. The one seam to the core computation, so the panel, its command
// and its tests take a record and never know how it was computed.
import type { LeaderboardRecord } from '../../core/leaderboard/leaderboard-record';
import { UserError } from '../../core/util/errors';

/** What to rank: a leaderboard.json (its entries name the experiments), or experiment folders (`folder` or `folder#run`). */
export type LeaderboardSource = { kind: 'file'; file: string } | { kind: 'experiments'; experiments: string[] };

/** The record for `source`, as `sweci leaderboard --format json` prints it. */
export function loadLeaderboard(source: LeaderboardSource): Promise<LeaderboardRecord> {
  // TODO(issue 34): call computeLeaderboard (src/core/leaderboard/, written on branch i34-core
  // beside `sweci leaderboard`) with the source's experiments or file and the default options,
  // once that branch is merged. Until then the command says the computation is missing.
  const what = source.kind === 'file' ? source.file : source.experiments.join(', ');
  return Promise.reject(new UserError('The leaderboard computation is not built yet (issue 34).', { detail: `Asked to rank: ${what}` }));
}
