// One way to read and write the records the product keeps on disk (task.json, run.json,
// iteration.jsonl, …). Each record file is described once — what it is, its schema, what the user
// should do when it is damaged — and that description gives the file its read and its write.
// A missing file, an unreadable one, text that is not JSON and JSON of the wrong shape are told
// apart here, in the same words for every record, instead of by each reader.
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { UserError, errorMessage } from '../util/errors';
import { writeFileAtomic } from '../util/fs-atomic';
import { describeSchemaProblem } from './schema-problem';

/** Thrown when a record file exists but its text is not the record it should be. */
export class DamagedRecordError extends UserError {
  constructor(
    readonly file: string,
    readonly why: string,
    advice: string,
    cause?: unknown,
  ) {
    super(`${file} is corrupt (${why}). ${advice}`, cause !== undefined ? { detail: errorMessage(cause), cause } : undefined);
    this.name = 'DamagedRecordError';
  }
}

export interface RecordFileSpec<S extends z.ZodType> {
  schema: S;
  /** What the user should do when the file is damaged, said as a full sentence. */
  whenDamaged: string;
  /**
   * 'throw' (the default): a damaged file is an error the user must act on. 'missing': it is
   * read as absent — for a file that only saves work (a journal) or a cache, never for a result.
   */
  onDamage?: 'throw' | 'missing';
  /** Written indented (for files people read) or on one line. Default: indented. */
  indent?: boolean;
  /** Check a record against the schema before writing it (a failure is a bug). Default: true. */
  checkOnWrite?: boolean;
  /** Flush before the rename (default true); false for a cache, which a crash may lose. */
  durable?: boolean;
}

export interface RecordFile<T> {
  /** The record, or undefined when the file (or its folder) does not exist. */
  read(file: string): Promise<T | undefined>;
  /** read, synchronously: for readers of thousands of small records, where a promise per file costs more than the read. */
  readSync(file: string): T | undefined;
  /** Checks `text` as this record's content; `file` names it in errors. */
  parse(text: string, file: string): T;
  /** Writes the record whole (a reader sees the old file or the new one), after checking it. */
  write(file: string, value: T): Promise<void>;
}

/** A JSON file holding one record. */
export function jsonRecordFile<S extends z.ZodType>(spec: RecordFileSpec<S>): RecordFile<z.output<S>> {
  type T = z.output<S>;
  const parse = (text: string, file: string): T => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new DamagedRecordError(file, 'not valid JSON', spec.whenDamaged, err);
    }
    const result = spec.schema.safeParse(value, { reportInput: true });
    if (!result.success) throw new DamagedRecordError(file, describeSchemaProblem(result.error), spec.whenDamaged);
    return result.data;
  };
  const parsePresent = (text: string | undefined, file: string): T | undefined => {
    if (text === undefined) return undefined;
    try {
      return parse(text, file);
    } catch (err) {
      if (spec.onDamage === 'missing' && err instanceof DamagedRecordError) return undefined;
      throw err;
    }
  };
  return {
    parse,
    async read(file) {
      return parsePresent(await readIfPresent(file), file);
    },
    readSync(file) {
      return parsePresent(readIfPresentSync(file), file);
    },
    async write(file, value) {
      const checked = spec.checkOnWrite === false ? undefined : spec.schema.safeParse(value);
      // A record the product is about to write that fails its own schema is a bug: say so loudly.
      if (checked && !checked.success) throw new Error(`refusing to write ${path.basename(file)}: ${describeSchemaProblem(checked.error)}`);
      await writeFileAtomic(file, (spec.indent === false ? JSON.stringify(value) : JSON.stringify(value, null, 2)) + '\n', { durable: spec.durable !== false });
    },
  };
}

/**
 * The lines of a JSON Lines file, each checked against `schema`. A final line without its newline
 * is what a crash left mid-append: ignored.
 */
/**
 * The complete lines of a JSON-lines text, each checked against `schema`. `plain`, when given, is
 * a cheaper check that answers true only for values the schema accepts and returns unchanged
 * (false: the schema decides, and words the error).
 */
export function parseJsonLines<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  whenDamaged: string,
  /** A faster check that answers "the schema would return this very value" (true) or "not sure" (false). */
  plain?: (value: unknown) => boolean,
): Array<z.output<S>> {
  const end = text.lastIndexOf('\n');
  if (end < 0) return [];
  const out: Array<z.output<S>> = [];
  text
    .slice(0, end)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (err) {
        throw new DamagedRecordError(`${file} line ${i + 1}`, 'not valid JSON', whenDamaged, err);
      }
      if (plain?.(value)) {
        out.push(value as z.output<S>);
        return;
      }
      const result = schema.safeParse(value, { reportInput: true });
      if (!result.success) throw new DamagedRecordError(`${file} line ${i + 1}`, describeSchemaProblem(result.error), whenDamaged);
      out.push(result.data);
    });
  return out;
}

/** The file's text, or undefined when it (or a folder on its path) does not exist. */
export async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    return absentOrThrow(file, err);
  }
}

/** readIfPresent, synchronously. */
export function readIfPresentSync(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    return absentOrThrow(file, err);
  }
}

function absentOrThrow(file: string, err: unknown): undefined {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  throw new UserError(`Cannot read ${file} (${errorMessage(err)}). Check its permissions.`, { cause: err });
}
