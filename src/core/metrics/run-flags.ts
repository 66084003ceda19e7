// What an iteration's line says about the trust its score deserves, in one list for every view
// (summarize, the exported report, the chart's table and points): the integrity flags the loop
// records, and a step that ran without isolation. Pure: no node imports.

export const RUN_FLAGS = ['inflated', 'harness-tampering', 'tampered', 'outside-changes', 'oversized', 'not-isolated'] as const;
export type RunFlag = (typeof RUN_FLAGS)[number];

/** Short words for tables and tooltips. */
export const RUN_FLAG_LABELS: Readonly<Record<RunFlag, string>> = {
  inflated: 'inflated (passes the target never had)',
  'harness-tampering': 'harness tampering (changes how pytest collects or reports)',
  tampered: 'tests changed (restored before pytest)',
  'outside-changes': 'changes outside app/code',
  oversized: 'files too large to commit',
  'not-isolated': 'not isolated',
};

/** The fields of an iteration.jsonl line the flags come from. */
export interface FlaggedLine {
  inflated?: readonly string[];
  harness_tampering?: readonly string[];
  tampered?: readonly string[];
  outside_changes?: readonly string[];
  oversized?: readonly string[];
  isolation?: string;
}

export function lineFlags(line: FlaggedLine): RunFlag[] {
  const has = (list?: readonly string[]) => (list?.length ?? 0) > 0;
  const on: Record<RunFlag, boolean> = {
    inflated: has(line.inflated),
    'harness-tampering': has(line.harness_tampering),
    tampered: has(line.tampered),
    'outside-changes': has(line.outside_changes),
    oversized: has(line.oversized),
    'not-isolated': line.isolation === 'none',
  };
  return RUN_FLAGS.filter((f) => on[f]);
}

/** Every flag of any line of a run, in RUN_FLAGS order. */
export function runFlags(lines: readonly FlaggedLine[]): RunFlag[] {
  const seen = new Set(lines.flatMap(lineFlags));
  return RUN_FLAGS.filter((f) => seen.has(f));
}
