// What failed, short enough to survive at the end of a long log. CI shows only the last part of
// `npm test`'s output, and the unit tier prints each file whole where it ended, so a failure's
// reason could sit thousands of lines above the end. Each tier prints a digest after
// FAILURE_DIGEST_MARK; `npm test` prints every failed job's digest again as its very last lines.

/** The line a tier prints before its digest (run-all-tests.ts finds the last one in a job's log). */
export const FAILURE_DIGEST_MARK = '── what failed ──';

const MAX_LINE = 300;

/**
 * The "failing tests" part of a `node --test` spec report, without stack frames and the error's
 * own fields: each failing test's name and message, at most `maxLines` lines. Undefined when the
 * output has no such part (a file that died before its report, say).
 */
export function failingTests(specOutput: string, maxLines = 40): string[] | undefined {
  const lines = specOutput.split('\n');
  const start = lines.findIndex((l) => /^✖ failing tests:\s*$/.test(l));
  if (start < 0) return undefined;
  const kept: string[] = [];
  let inFields = false;
  for (const line of lines.slice(start + 1)) {
    const body = line.trim();
    if (body === '') continue;
    // An error's own fields ({ code: …, actual: … }) follow its stack; they end at a lone "}".
    if (inFields) {
      if (body === '}') inFields = false;
      continue;
    }
    if (/^at /.test(body)) {
      if (body.endsWith('{')) inFields = true;
      continue;
    }
    if (/^test at /.test(body)) continue;
    kept.push(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
  }
  return kept.length > maxLines ? [...kept.slice(0, maxLines), `  … ${kept.length - maxLines} more lines in the file's output above`] : kept;
}

/** The part of a log after its last digest mark, or its last `tail` lines when it has none. */
export function digestOfLog(log: string, tail = 40, maxLines = 200): string[] {
  const lines = log.replace(/\n+$/, '').split('\n');
  const mark = lines.lastIndexOf(FAILURE_DIGEST_MARK);
  const part = mark >= 0 ? lines.slice(mark + 1) : lines.slice(-tail);
  return part.length > maxLines ? [...part.slice(0, maxLines), `… ${part.length - maxLines} more lines in the log`] : part;
}
