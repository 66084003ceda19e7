// How the commands that show scores (summarize, compare, report, leaderboard) take the scoring
// rules from their flags: one set of flags, one reading, so every view scores alike.
import type { Command } from 'commander';
import type { ScoringRules } from '../../shared/metrics/scored-line';

export interface ScoringValues {
  keepFlagged?: boolean;
  excludeHarnessTampering?: boolean;
  scoreTargetTestsOnly?: boolean;
}

export function addScoringOptions(command: Command): Command {
  return command
    .option(
      '--keep-flagged',
      "score inflated and tampered iterations at their raw figures, the reference's (default: their honest ones: no passes the target never had, no report a tampering conftest wrote)",
    )
    .option('--exclude-harness-tampering', 'score iterations flagged for harness tampering as not run')
    .option('--score-target-tests-only', "count passes among the tests the target passes only (the paper's n(c) over T), not pytest's whole count");
}

export function scoringRulesOf(values: ScoringValues): ScoringRules {
  return {
    keepFlagged: !!values.keepFlagged,
    excludeHarnessTampering: !!values.excludeHarnessTampering,
    scoreTargetTestsOnly: !!values.scoreTargetTestsOnly,
  };
}
