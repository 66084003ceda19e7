// One way to cut text into lines, for the extension and the webviews alike.

/** The lines of `text` without their ends (\n or \r\n); a final line end does not start an empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
