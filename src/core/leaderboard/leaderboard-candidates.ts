// What the Open Leaderboard picker offers once the user has picked experiment folders: those
// experiments' own runs (ticked), their upstream developers' replay (human-history, ticked), and
// the experiments beside them in the same parent folder with their replays (not ticked), so one
// folder picked is not one entry ranked, and a dialog that takes one folder (VS Code in a
// browser) still reaches several.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readExperiment } from '../batch/experiment';
import { HUMAN_HISTORY_RUN } from '../loop/run-name';
import { hasRun } from './leaderboard-inputs';

export interface LeaderboardCandidate {
  /** As `sweci leaderboard` takes it: the folder, or folder#human-history. */
  argument: string;
  experiment: string;
  run: string;
  kind: 'agent' | 'human-history';
  /** Ticked at first: a folder the user picked, and the first of their replays; not the ones found beside them. */
  picked: boolean;
}

/** The candidates for `picked` (absolute experiment folders), picked ones first, each experiment once. */
export async function leaderboardCandidates(picked: readonly string[]): Promise<LeaderboardCandidate[]> {
  const chosen = picked.map((p) => path.resolve(p));
  const beside: string[] = [];
  for (const parent of new Set(chosen.map((p) => path.dirname(p)))) {
    const names = await fs.readdir(parent).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const dir = path.join(parent, name);
      if (!chosen.includes(dir) && !beside.includes(dir) && (await readExperiment(dir).catch(() => undefined))) beside.push(dir);
    }
  }
  const out: LeaderboardCandidate[] = [];
  // One replay ticked: the developers' commits are the same whichever experiment replayed them.
  let replayTicked = false;
  for (const [dirs, isPicked] of [
    [chosen, true],
    [beside, false],
  ] as const) {
    for (const experiment of dirs) {
      const record = await readExperiment(experiment).catch(() => undefined);
      // A picked folder that is not an experiment stays: ranking it says why it cannot be.
      if (record || isPicked) out.push({ argument: experiment, experiment, run: record?.run ?? '', kind: 'agent', picked: isPicked });
      if (record && (await hasRun(experiment, HUMAN_HISTORY_RUN).catch(() => false))) {
        const tick: boolean = isPicked && !replayTicked;
        replayTicked ||= tick;
        out.push({ argument: `${experiment}#${HUMAN_HISTORY_RUN}`, experiment, run: HUMAN_HISTORY_RUN, kind: 'human-history', picked: tick });
      }
    }
  }
  return out;
}
