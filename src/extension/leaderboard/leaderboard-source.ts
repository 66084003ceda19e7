// Where the Leaderboard panel's record comes from: the experiment folders the user picked, or the
// workspace's leaderboard.json. The one seam to the core computation, so the panel, its command
// and its tests take a record and never know how it was computed.
import * as vscode from 'vscode';
import { computeLeaderboard } from '../../core/leaderboard/compute-leaderboard';
import type { LeaderboardRecord } from '../../shared/leaderboard-record';
import { integritySettings } from '../config';

import type { LeaderboardSource } from '../../shared/leaderboard-protocol';

/** The record for `source`, as `sweci leaderboard --format json` prints it with its defaults; scored with the window's integrity settings. */
export function loadLeaderboard(source: LeaderboardSource): Promise<LeaderboardRecord> {
  const scoring = integritySettings(source.kind === 'file' ? vscode.Uri.file(source.file) : undefined);
  return computeLeaderboard(source.kind === 'file' ? { file: source.file, experiments: [] } : { experiments: source.experiments }, { scoring });
}
