// Reads a dataset's `metadata/<split>.csv` (DESIGN §2): one task per row, unknown columns kept.
import { promises as fs } from 'node:fs';
import { parse } from 'csv-parse/sync';
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

interface CsvInfoRecord {
  record: Record<string, string>;
  raw: string;
  info: { lines: number };
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
  let headerProblem: string | undefined;
  const columns = (header: string[]): string[] => {
    const names = header.map((h) => h.trim());
    const seen = new Set<string>();
    for (const n of names) {
      if (n === '') headerProblem = 'the header has an empty column name';
      else if (seen.has(n)) headerProblem = `the header names column "${n}" twice`;
      seen.add(n);
    }
    return names;
  };

  let records: CsvInfoRecord[];
  try {
    records = parse(text, {
      bom: true,
      columns,
      info: true,
      raw: true,
      skip_empty_lines: true,
    }) as unknown as CsvInfoRecord[];
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    throw new UserError(
      `${file}${line ? ` line ${line}` : ''}: the CSV is malformed (${errorMessage(err)}). Fix the file or re-download the dataset.`,
      { detail: errorMessage(err), cause: err },
    );
  }
  if (headerProblem) {
    throw new UserError(`${file} line 1: ${headerProblem}. Give every column a unique name.`);
  }
  if (records.length === 0) {
    // Distinguish "no header" from "header only" by looking for a header line.
    if (text.replace(/^\uFEFF/, '').trim() === '') {
      throw new UserError(`${file} is empty. A metadata CSV needs a header with ${REQUIRED_COLUMNS.join(', ')} and one row per task.`);
    }
  }

  const out: MetadataRow[] = [];
  for (const rec of records) {
    const line = startLine(rec);
    const row = rec.record;
    for (const col of REQUIRED_COLUMNS) {
      if (!(col in row)) {
        throw new UserError(
          `${file} line ${line}: column "${col}" is missing. The header must include ${REQUIRED_COLUMNS.join(', ')}.`,
        );
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
        throw new UserError(
          `${file} line ${line}: ${col} "${sha}" is not a commit sha (7 to 40 hexadecimal characters). Fix the row.`,
        );
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

/**
 * csv-parse reports the line where a record ends; subtract the line breaks inside the record
 * (quoted fields) to get where it starts. Leading breaks in `raw` are skipped empty lines.
 */
function startLine(rec: CsvInfoRecord): number {
  const body = rec.raw.replace(/^[\r\n]+/, '').replace(/\r?\n$|\r$/, '');
  const inner = (body.match(/\r\n|\r|\n/g) ?? []).length;
  return rec.info.lines - inner;
}
