// Reads a dataset's `metadata/<split>.csv`: one task per row, unknown columns kept.
import { promises as fs } from 'node:fs';
import { CsvError, parse } from 'csv-parse/sync';
import { UserError, errorMessage } from '../util/errors';

export const REQUIRED_COLUMNS = ['task_id', 'current_sha', 'target_sha'] as const;

export interface MetadataRow {
  /** All columns as read (header names trimmed), unknown ones included. */
  row: Record<string, string>;
  /** 1-based line of the file where the row starts (rows may span lines when quoted). */
  line: number;
  taskId: string;
  currentSha: string;
  targetSha: string;
  testGap?: number;
}

const SHA_RE = /^[0-9a-fA-F]{7,40}$/;

export function isShaLike(value: string): boolean {
  return SHA_RE.test(value);
}

/** Reads and validates one metadata CSV. Every problem is a UserError naming the file and the line. */
export async function readMetadataCsv(file: string): Promise<MetadataRow[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`Cannot read the dataset metadata file ${file}. Check that it exists and is readable.`, {
      detail: errorMessage(err),
      cause: err,
    });
  }
  return parseMetadataCsv(text, file);
}

/** Parses metadata CSV text; `file` is only used in messages. */
export function parseMetadataCsv(text: string, file: string): MetadataRow[] {
  // csv-parse's own line count is off for CRLF inside quoted fields, so lines are derived from
  // the byte offsets it reports. Records are read as arrays so the header's end offset is known too.
  const buf = Buffer.from(text, 'utf8');
  let records: string[][];
  const ends: number[] = []; // byte offset where each good record ends
  let header: string[] | undefined;
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      // As Python's csv module reads it (the reference harness does): a row ends at \r\n, \n or a
      // lone \r, mixed in one file (rows appended with LF to a CRLF file). Left to itself csv-parse
      // takes the first line's ending for every row and reads the rest as one long record.
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (record: string[], ctx: { bytes: number }) => {
        header ??= record;
        ends.push(ctx.bytes);
        return record;
      },
    });
  } catch (err) {
    // The offending record starts where the last good one ended.
    const line = lineAtByte(buf, skipBreaks(buf, ends.length ? ends[ends.length - 1] : 0));
    throw new UserError(`${file} line ${line}: ${malformedRow(err, header)}`, { detail: errorMessage(err), cause: err });
  }
  if (records.length === 0) {
    throw new UserError(`${file} is empty. A metadata CSV needs a header with ${REQUIRED_COLUMNS.join(', ')} and one row per task.`);
  }
  const headerLine = lineAtByte(buf, skipBreaks(buf, 0));
  const names = records[0].map((h) => h.trim());
  const seen = new Set<string>();
  for (const n of names) {
    if (n === '') throw new UserError(`${file} line ${headerLine}: the header has an empty column name. Give every column a name.`);
    if (seen.has(n)) throw new UserError(`${file} line ${headerLine}: the header names column "${n}" twice. Give every column a unique name.`);
    seen.add(n);
  }

  const out: MetadataRow[] = [];
  for (let r = 1; r < records.length; r++) {
    const line = lineAtByte(buf, skipBreaks(buf, ends[r - 1]));
    const row: Record<string, string> = {};
    names.forEach((n, i) => (row[n] = records[r][i] ?? ''));
    for (const col of REQUIRED_COLUMNS) {
      if (!(col in row)) {
        throw new UserError(`${file} line ${line}: column "${col}" is missing. The header must include ${REQUIRED_COLUMNS.join(', ')}.`);
      }
      if (row[col].trim() === '') {
        throw new UserError(`${file} line ${line}: "${col}" is empty. Fill it in or remove the row.`);
      }
    }
    const taskId = row.task_id.trim();
    const currentSha = row.current_sha.trim();
    const targetSha = row.target_sha.trim();
    for (const [col, sha] of [
      ['current_sha', currentSha],
      ['target_sha', targetSha],
    ] as const) {
      if (!isShaLike(sha)) {
        throw new UserError(`${file} line ${line}: ${col} "${sha}" is not a commit sha (7 to 40 hexadecimal characters). Fix the row.`);
      }
    }
    let testGap: number | undefined;
    const gapText = row.test_gap?.trim();
    if (gapText !== undefined && gapText !== '') {
      if (!/^[0-9]+$/.test(gapText)) {
        throw new UserError(`${file} line ${line}: test_gap "${gapText}" is not a non-negative integer. Fix the row or leave test_gap empty.`);
      }
      testGap = Number(gapText);
    }
    const entry: MetadataRow = {
      row,
      line,
      taskId,
      currentSha: currentSha.toLowerCase(),
      targetSha: targetSha.toLowerCase(),
    };
    if (testGap !== undefined) entry.testGap = testGap;
    out.push(entry);
  }
  return out;
}

/** What is wrong with the row csv-parse refused, and what to do about it. */
function malformedRow(err: unknown, header: string[] | undefined): string {
  if (err instanceof CsvError && err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && header && Array.isArray(err.record)) {
    const values = err.record.length;
    return (
      `the row has ${values} value${values === 1 ? '' : 's'} but the header has ${header.length} columns. ` +
      'Give the row one value per column (quote a value that holds a comma or a line break), or remove the row.'
    );
  }
  const why = errorMessage(err).replace(/\s*(?:at|on) line \d+/g, '');
  return `the CSV is malformed (${why}). Fix the file or re-download the dataset.`;
}

/** 1-based line of a byte offset; \r\n, \n and a lone \r each end a line. */
function lineAtByte(buf: Buffer, offset: number): number {
  let line = 1;
  const end = Math.min(offset, buf.length);
  for (let i = 0; i < end; i++) {
    if (buf[i] === 0x0a) line++;
    else if (buf[i] === 0x0d) {
      line++;
      if (buf[i + 1] === 0x0a && i + 1 < end) i++;
    }
  }
  return line;
}

/** Skips the line breaks of empty lines that csv-parse dropped before a record. */
function skipBreaks(buf: Buffer, offset: number): number {
  while (offset < buf.length && (buf[offset] === 0x0a || buf[offset] === 0x0d)) offset++;
  return offset;
}
