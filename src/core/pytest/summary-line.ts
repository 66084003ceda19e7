// pytest's closing summary line ("==== 1 failed, 2 passed, 1 error in 0.12s ====", or without the
// bars under -q), read from its output: the report stream is compared with it. pytest's terminal
// writes it from its own counts, apart from our plugin.

/** The categories compared; others (warnings, deselected, a plugin's own) are left alone. */
export const SUMMARY_CATEGORIES = ['passed', 'failed', 'error', 'skipped', 'xfailed', 'xpassed'] as const;

const LINE = /^(?:=+ )?(no tests ran|\d+ [a-z][\w ]*(?:, \d+ [a-z][\w ]*)*) in \d+(?:\.\d+)?s(?: \(\d+:\d{2}:\d{2}\))?(?: =+)?$/;

/** The counts of the last summary line in `output`, or undefined when it has none. */
export function summaryCounts(output: string): Map<string, number> | undefined {
  const lines = output.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = LINE.exec(lines[i].trim());
    if (!m) continue;
    const counts = new Map<string, number>();
    if (m[1] === 'no tests ran') return counts;
    for (const part of m[1].split(', ')) {
      const space = part.indexOf(' ');
      let key = part.slice(space + 1);
      // pytest writes "2 errors" and "2 warnings", never "2 passeds".
      if (key === 'errors') key = 'error';
      counts.set(key, Number(part.slice(0, space)));
    }
    return counts;
  }
  return undefined;
}

/** Where the stream's counts and the summary line's differ, e.g. "passed 3 against 1"; undefined when they agree. */
export function summaryMismatch(streamed: ReadonlyMap<string, number>, line: ReadonlyMap<string, number>): string | undefined {
  const differ: string[] = [];
  for (const key of SUMMARY_CATEGORIES) {
    const a = streamed.get(key) ?? 0;
    const b = line.get(key) ?? 0;
    if (a !== b) differ.push(`${key} ${a} in the stream, ${b} in pytest's summary line`);
  }
  return differ.length ? differ.join('; ') : undefined;
}
