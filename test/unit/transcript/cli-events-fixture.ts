// Try logs for the cli-events transcript tests, laid out as cli-driver.ts writes them: its header,
// the CLI's stdout and stderr, its footer. The events are built here, in the shapes the pinned
// CLIs print (as recorded from real runs against the project's model server).
import assert from 'node:assert/strict';
import { transcriptFromCliEvents } from '../../../src/core/transcript/cli-events-transcript';
import { transcriptSchema, type Transcript, type TranscriptCall } from '../../../src/shared/transcript-schema';

/** JSON Lines. */
export const lines = (...events: object[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');

export interface LogParts {
  /** Stderr text, after stdout (as a whole chunk). */
  stderr?: string;
  /** The footer's end line: `# ended: <how> after <seconds> s`; null: no footer (a try still running). */
  ended?: { how: string; seconds: number } | null;
  error?: string;
}

export function tryLog(agent: string, stdout: string, parts: LogParts = {}): string {
  const header = [
    '# SWE-CI agent run',
    `# agent:   ${agent}`,
    '# role:    programmer',
    `# command: ${agent} --output-format stream-json < /t/.sweci/runs/r/iter-001/programmer.prompt.md`,
    '# cwd:     /t/app',
    '# prompt:  /t/.sweci/runs/r/iter-001/programmer.prompt.md (on stdin)',
    '# env:     HOME, TMPDIR (values hidden)',
    '# timeout: 1800 s',
    '# started: 2026-01-01T00:00:00.000Z',
    '',
    '',
  ].join('\n');
  const ended = parts.ended === undefined ? { how: 'exit code 0', seconds: 12.5 } : parts.ended;
  const footer = ended
    ? `\n\n# ended:   ${ended.how} after ${ended.seconds.toFixed(1)} s\n# usage:   not reported\n${parts.error ? `# error:   ${parts.error}\n` : ''}`
    : '';
  return header + stdout + (parts.stderr ?? '') + footer;
}

export const META: Parameters<typeof transcriptFromCliEvents>[1] = { role: 'programmer', iteration: 2, try: 1, run: 'r' };

/** The transcript of a log, which must be one and must match the schema. */
export function transcriptOf(log: string, agent: string | undefined): Transcript {
  const t = transcriptFromCliEvents(log, { ...META, ...(agent !== undefined ? { agent } : {}) });
  assert.ok(t, 'a transcript');
  const parsed = transcriptSchema.safeParse(t);
  assert.ok(parsed.success, `the transcript matches the schema: ${parsed.success ? '' : JSON.stringify(parsed.error.issues).slice(0, 800)}`);
  assert.equal(t.source, 'cli-events');
  assert.equal(t.totals.calls, t.calls.length);
  t.calls.forEach((c, i) => assert.equal(c.call, i + 1, 'calls are numbered from 1'));
  return t;
}

/** A call's items, short: `text:…`, `reasoning:…`, `call:name`, `result:name=output`. */
export function shape(items: TranscriptCall['input']): string[] {
  return items.map((i) =>
    i.kind === 'text'
      ? `${i.role}:${i.text}`
      : i.kind === 'reasoning'
        ? `reasoning:${i.text}`
        : i.kind === 'tool-call'
          ? `call:${i.name}`
          : `result:${i.name ?? '?'}${i.isError ? '!' : ''}=${i.output}`,
  );
}
