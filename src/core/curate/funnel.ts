// The paper-style funnel of a curation (4,923 repositories → 8,311 pairs → 1,458 → 137 → 100 in
// §3.1): how many candidates reach each step, and why the others were dropped.
import type { CandidateRecord, CurationManifest, Stage } from './curation-store';
import { plural } from '../util/plural';

export interface Funnel {
  commits: number;
  /** Spans longer than one commit (windows, when cut). */
  spans: number;
  /** Pairs over the changed- and source-line thresholds. Null: the step has not run on any candidate. */
  overLineThresholds: number | null;
  environmentBuilt: number | null;
  baseLaunches: number | null;
  gapAtLeastMin: number | null;
  kept: number | null;
  /** Candidates still waiting for a stage. */
  pending: number;
  /** Drops counted by stage and reason code. */
  drops: Partial<Record<Stage, Record<string, number>>>;
}

export interface StatusCandidate {
  base: string;
  oracle: string;
  commits: number;
  days: number;
  changedLines: number;
  sourceLines: number;
  stage: Stage;
  outcome: CandidateRecord['outcome'];
  reason: string | null;
  image: string | null;
  gap: number | null;
}

export interface CurationStatus {
  funnel: Funnel;
  candidates: StatusCandidate[];
}

/** Passed the stage (or went further). */
function passed(r: CandidateRecord, stage: Stage): boolean {
  return r.stages[stage]?.outcome === 'passed';
}

export function curationStatus(manifest: CurationManifest, records: readonly CandidateRecord[]): CurationStatus {
  const ran = (stage: Stage): boolean => records.some((r) => r.stages[stage] !== undefined);
  const count = (pred: (r: CandidateRecord) => boolean): number => records.filter(pred).length;
  const drops: Funnel['drops'] = {};
  for (const r of records) {
    for (const [stage, o] of Object.entries(r.stages) as Array<[Stage, NonNullable<CandidateRecord['stages'][Stage]>]>) {
      if (o.outcome !== 'dropped') continue;
      const byCode = (drops[stage] ??= {});
      const code = o.code ?? 'other';
      byCode[code] = (byCode[code] ?? 0) + 1;
    }
  }
  const filterRan = ran('filter');
  return {
    funnel: {
      commits: manifest.commits,
      spans: records.length,
      overLineThresholds: ran('mine') ? count((r) => passed(r, 'mine')) : null,
      environmentBuilt: ran('env') ? count((r) => passed(r, 'env')) : null,
      baseLaunches: filterRan
        ? count((r) => passed(r, 'env') && r.stages.filter !== undefined && r.stages.filter.code !== 'base-launch' && r.stages.filter.code !== 'oracle-launch')
        : null,
      gapAtLeastMin: filterRan ? count((r) => passed(r, 'filter') || r.stages.filter?.code === 'top') : null,
      kept: ran('pack') ? count((r) => r.outcome === 'kept') : null,
      pending: count((r) => r.outcome === 'pending'),
      drops,
    },
    candidates: records.map((r) => ({
      base: r.base,
      oracle: r.oracle,
      commits: r.commits,
      days: r.days,
      changedLines: r.changedLines,
      sourceLines: r.sourceLines,
      stage: r.stage,
      outcome: r.outcome,
      reason: r.reason ?? null,
      image: r.image ?? null,
      gap: r.gap ?? null,
    })),
  };
}

const STEP_ROWS: Array<[keyof Funnel, string, Stage | undefined]> = [
  ['commits', 'first-parent commits', undefined],
  ['spans', 'spans (longer than one commit)', undefined],
  ['overLineThresholds', 'pairs over the line thresholds', 'mine'],
  ['environmentBuilt', 'environment built', 'env'],
  ['baseLaunches', "base launches the oracle's tests", undefined],
  ['gapAtLeastMin', 'gap at least --min-gap', 'filter'],
  ['kept', 'kept', 'pack'],
];

/** The funnel as the terminal shows it, one step a line, drop reasons beside the step that dropped them. */
export function formatFunnel(manifest: CurationManifest, status: CurationStatus): string {
  const lines = [`Curation of ${manifest.source} (${manifest.branch} at ${manifest.tip.slice(0, 12)}), mined ${manifest.minedAt}`];
  const width = Math.max(...STEP_ROWS.map(([, label]) => label.length));
  for (const [key, label, stage] of STEP_ROWS) {
    const value = status.funnel[key] as number | null;
    const reasons = stage ? status.funnel.drops[stage] : undefined;
    const why =
      reasons && Object.keys(reasons).length
        ? `   dropped: ${Object.entries(reasons)
            .map(([code, n]) => `${code} ${n}`)
            .join(', ')}`
        : '';
    lines.push(`  ${label.padEnd(width)}  ${value === null ? '(not run)'.padStart(9) : String(value).padStart(9)}${why}`);
  }
  if (status.funnel.pending > 0)
    lines.push(`  ${plural(status.funnel.pending, 'candidate')} ${status.funnel.pending === 1 ? 'waits' : 'wait'} for the next stage.`);
  for (const p of manifest.problems) lines.push(`  note: ${p}`);
  return `${lines.join('\n')}\n`;
}
