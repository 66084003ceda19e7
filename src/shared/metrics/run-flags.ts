// What an iteration's line says about the trust its score deserves, in one list for every view
// (summarize, the exported report, the chart's table and points): the integrity flags the loop
// records, a step that ran without isolation, and an agent that had the open network. Pure: no
// node imports. The labels go through @vscode/l10n: translated where a view configured it with the
// display language's bundle (the webviews, the extension host), the English here everywhere else
// (the CLI never configures it).
import * as l10n from '@vscode/l10n';

export const RUN_FLAGS = ['inflated', 'harness-tampering', 'tampered', 'outside-changes', 'oversized', 'not-isolated', 'network-open'] as const;
export type RunFlag = (typeof RUN_FLAGS)[number];

/** Short words for tables and tooltips: literal l10n.t calls, so that `npm run l10n` collects them. */
const RUN_FLAG_LABELS: { readonly [F in RunFlag]: () => string } = {
  inflated: () => l10n.t('inflated (passes the target never had)'),
  'harness-tampering': () => l10n.t('harness tampering (changes how pytest collects or reports)'),
  tampered: () => l10n.t('tests changed (restored before pytest)'),
  'outside-changes': () => l10n.t('changes outside app/code'),
  oversized: () => l10n.t('files too large to commit'),
  'not-isolated': () => l10n.t('not isolated'),
  'network-open': () => l10n.t('an agent had the open network (sweci.agents.network)'),
};

/** A flag's label (read when shown, so after the view has configured its language). */
export const runFlagLabel = (flag: RunFlag): string => RUN_FLAG_LABELS[flag]();

/** The fields of an iteration.jsonl line the flags come from. */
export interface FlaggedLine {
  inflated?: readonly string[];
  /** How many inflated ids there were (the list may be cut). */
  inflated_count?: number;
  harness_tampering?: readonly string[];
  tampered?: readonly string[];
  outside_changes?: readonly string[];
  oversized?: readonly string[];
  isolation?: string;
  pytest_network?: string;
  architect?: { network?: string };
  programmer?: { network?: string };
}

export function lineFlags(line: FlaggedLine): RunFlag[] {
  const has = (list?: readonly string[]) => (list?.length ?? 0) > 0;
  const on: Record<RunFlag, boolean> = {
    inflated: has(line.inflated),
    'harness-tampering': has(line.harness_tampering),
    tampered: has(line.tampered),
    'outside-changes': has(line.outside_changes),
    oversized: has(line.oversized),
    // No sandbox, or pytest on this machine's network (sweci.pytest.network `host`).
    'not-isolated': line.isolation === 'none' || line.pytest_network === 'host',
    'network-open': line.architect?.network === 'open' || line.programmer?.network === 'open',
  };
  return RUN_FLAGS.filter((f) => on[f]);
}

/** Every flag of any line of a run, in RUN_FLAGS order. */
export function runFlags(lines: readonly FlaggedLine[]): RunFlag[] {
  const seen = new Set(lines.flatMap(lineFlags));
  return RUN_FLAGS.filter((f) => seen.has(f));
}

/**
 * The flags that put a score itself in doubt (the others say what was restored or left out). A
 * run whose score rests on one is never shown as plainly solved: every view names the flag
 * beside its score, in `solved` and in each average that includes it (scored-line.ts says which
 * of them a score rests on under the strict options).
 */
export const SCORE_FLAGS: readonly RunFlag[] = ['inflated', 'harness-tampering', 'not-isolated'];

/** How many runs a count or an average includes whose score rests on a flag, and which flags. */
export interface FlaggedCount {
  runs: number;
  flags: RunFlag[];
}

export function flaggedCount(rows: ReadonlyArray<readonly RunFlag[]>): FlaggedCount {
  const flagged = rows.filter((f) => f.length > 0);
  const seen = new Set(flagged.flat());
  return { runs: flagged.length, flags: RUN_FLAGS.filter((f) => seen.has(f)) };
}

// The words every text view uses for them, so the terminal, the report and the chart agree.

/** A score followed by the flags it rests on: "1.0000 ⚑ harness-tampering". */
export function flaggedScore(text: string, flags: readonly RunFlag[]): string {
  return flags.length ? `${text} ⚑ ${flags.join(', ')}` : text;
}

/** What a count or an average includes: "1 flagged: harness-tampering"; '' when none. */
export function flaggedNote(count: FlaggedCount): string {
  return count.runs ? `${count.runs} flagged: ${count.flags.join(', ')}` : '';
}
