// Reads summary.jsonl back (the lines summary.ts writes): each test's kind and reason, for
// readers such as the requirement.xml language server. Unreadable lines are skipped.
import type { NonPassedKind } from './non-passed';
import { NOT_COLLECTED_DESCRIPTION } from './summary';

export interface SummaryEntry {
  nodeid: string;
  kind: NonPassedKind;
  /** The phase named by "at <phase> stage", when there is one. */
  stage?: string;
  /** The text after "Reason: ", without the detail-file sentence. */
  reason?: string;
  description: string;
}

export function parseSummaryJsonl(text: string): SummaryEntry[] {
  const out: SummaryEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    const { test, description } = value as { test?: unknown; description?: unknown };
    if (typeof test !== 'string' || test === '') continue;
    out.push(describe(test, typeof description === 'string' ? description : ''));
  }
  return out;
}

function describe(nodeid: string, description: string): SummaryEntry {
  if (description === NOT_COLLECTED_DESCRIPTION) return { nodeid, kind: 'not-collected', description };
  const outcome = /^Test (\w+)/.exec(description)?.[1];
  // Same mapping as non-passed.ts: anything but failed/error (skipped, xfailed, …) did not pass.
  const kind: NonPassedKind = outcome === 'failed' ? 'failed' : outcome === 'error' ? 'error' : 'skipped';
  const entry: SummaryEntry = { nodeid, kind, description };
  const stage = /^Test \w+ at (\w+) stage\./.exec(description)?.[1];
  if (stage) entry.stage = stage;
  const reason = /Reason: ([\s\S]*?)\. Detailed traceback is recorded in /.exec(description)?.[1];
  if (reason) entry.reason = reason;
  return entry;
}
