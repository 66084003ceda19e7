// metadata/<split>.csv of a partly downloaded dataset: the Hub's file with only the rows of the
// tasks whose files are all here and verified. Rows are cut from the original text, not written
// anew, so every kept row (quoting, line endings, unknown columns) reads exactly as the Hub's.
import type { MetadataRow } from '../task/csv-metadata';

/** Lines of `text` with their endings, so they join back to it. */
function linesOf(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$/g) ?? [];
}

/**
 * The original text with only the rows whose task id `keep` accepts. `rows` come from
 * parseMetadataCsv(text); each row runs from its line to the line before the next row's.
 */
export function filterCsvRows(text: string, rows: readonly MetadataRow[], keep: (taskId: string) => boolean): string {
  if (rows.every((r) => keep(r.taskId))) return text;
  const lines = linesOf(text);
  const starts = rows.map((r) => r.line - 1);
  let out = lines.slice(0, starts[0] ?? lines.length).join('');
  // A header without a line ending would glue the first kept row onto it.
  if (out !== '' && !/[\r\n]$/.test(out)) out += '\n';
  rows.forEach((r, i) => {
    if (!keep(r.taskId)) return;
    let piece = lines.slice(starts[i], starts[i + 1] ?? lines.length).join('');
    if (!/[\r\n]$/.test(piece)) piece += '\n';
    out += piece;
  });
  return out;
}
