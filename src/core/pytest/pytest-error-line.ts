// Why a pytest run failed, in one line of its output: what runPytest's error says.

/**
 * The line of pytest's output that says what went wrong, when it says: the first `E   …` line
 * (an ImportError in a conftest, a collection error), else pytest's own `ERROR: …` line (a usage
 * error). Long lines are cut; the whole output is kept in its file.
 */
export function firstErrorLine(output: string): string | undefined {
  const lines = output.split(/\r?\n/);
  // The first `E` line that names an exception ("SyntaxError: …"), else the first `E` line
  // (a syntax error's block starts with `File "…", line 1`).
  const eLines = lines.filter((l) => /^E\s{2,}\S/.test(l)).map((l) => l.replace(/^E\s+/, ''));
  const traced = eLines.find((l) => /^[\w.]*(Error|Exception|Exit|Interrupt|Failed)\b/.test(l)) ?? eLines[0];
  // A usage error: "ERROR: usage: …" is followed by the line that says which argument was wrong.
  const usage = lines.find((l) => /^\S+: error: \S/.test(l))?.replace(/^\S+: error: /, '');
  const own = lines.find((l) => /^ERROR: \S/.test(l) && !/^ERROR: usage:/.test(l))?.replace(/^ERROR: /, '');
  const line = (traced ?? usage ?? own)?.trim();
  if (!line) return undefined;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
