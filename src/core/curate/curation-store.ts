// A curation's folder: `curation.json` says whose curation it is and with which rules,
// `curation.jsonl` holds one line per candidate with every stage's outcome. Both are written
// whole and renamed into place, so a kill leaves the last finished state, never half a line;
// running again reads them and continues.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../util/fs-atomic';
import { UserError, errorMessage } from '../util/errors';
import { isRecord } from '../util/is-record';
import type { MinedCandidate, MineOptions } from './mine';

export const CURATION_FORMAT = 'sweci-curation';
export const STAGES = ['mine', 'env', 'filter', 'pack'] as const;
export type Stage = (typeof STAGES)[number];

export interface CurationManifest {
  format: typeof CURATION_FORMAT;
  version: 1;
  /** The repository as given: an absolute path or a clone URL. */
  source: string;
  branch: string;
  tip: string;
  commits: number;
  dependencyChanges: number;
  options: Omit<MineOptions, 'signal'>;
  minedAt: string;
  mineSeconds: number;
  problems: string[];
}

export interface StageOutcome {
  outcome: 'passed' | 'dropped';
  /** A short code counted in the funnel (e.g. min-changed-lines). */
  code?: string;
  reason?: string;
  at: string;
  seconds: number;
}

export interface CandidateRecord extends Omit<MinedCandidate, 'dropped'> {
  /** The last stage that ran on it. */
  stage: Stage;
  /** pending: waits for the next stage; dropped: that stage dropped it; kept: in the dataset. */
  outcome: 'pending' | 'dropped' | 'kept';
  reason?: string;
  stages: Partial<Record<Stage, StageOutcome>>;
  image?: string;
  gap?: number;
}

export const MANIFEST_FILE = 'curation.json';
export const RECORDS_FILE = 'curation.jsonl';

/**
 * Refuses an --out that holds something other than this curation: a folder with files but no
 * manifest (a dataset, a project), or another repository's curation. Returns the manifest when
 * it is this curation's own (a resume).
 */
export async function checkOutFolder(out: string, source: string): Promise<CurationManifest | undefined> {
  if (!existsSync(out)) return undefined;
  const stat = await fs.stat(out);
  if (!stat.isDirectory()) throw new UserError(`--out ${out} is a file. Give a folder (new or empty) for the curation.`);
  const manifest = await readManifest(out);
  if (manifest === undefined) {
    // A mining killed after its records and before its manifest leaves only files of ours.
    const entries = (await fs.readdir(out)).filter((e) => e !== 'source.git' && e !== RECORDS_FILE && !/^\.curation\.jsonl?\..*\.tmp$/.test(e));
    if (entries.length === 0) return undefined;
    const what = entries.includes('metadata') ? 'a SWE-CI dataset' : 'other files';
    throw new UserError(
      `--out ${out} already holds ${what} (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}) and no curation of ours. Give a new or empty folder: curation writes its dataset there.`,
    );
  }
  if (manifest.source !== source) {
    throw new UserError(
      `--out ${out} holds the curation of ${manifest.source}, not of ${source}. Give another folder, or the same repository to continue that curation.`,
    );
  }
  return manifest;
}

export async function readManifest(out: string): Promise<CurationManifest | undefined> {
  const file = path.join(out, MANIFEST_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not valid JSON. It is written whole, so something else wrote it: move it away and run again.`, {
      detail: errorMessage(err),
    });
  }
  if (!isRecord(doc) || doc.format !== CURATION_FORMAT || doc.version !== 1) {
    throw new UserError(`${file} is not a SWE-CI curation manifest (format ${CURATION_FORMAT}, version 1). Give --out a folder of its own.`);
  }
  return doc as unknown as CurationManifest;
}

/** The candidates, in the file's order. A line that does not parse is an error that names it: the file is only ever written whole. */
export async function readRecords(out: string): Promise<CandidateRecord[]> {
  const file = path.join(out, RECORDS_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return [];
  }
  const records: CandidateRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch (err) {
      throw new UserError(`${file} line ${i + 1} is not JSON. The file is written whole by sweci curate: restore it or remove it and run again.`, {
        detail: errorMessage(err),
      });
    }
    if (!isRecord(doc) || typeof doc.id !== 'string' || typeof doc.base !== 'string') {
      throw new UserError(`${file} line ${i + 1} is not a candidate record (no id or base).`);
    }
    records.push(doc as unknown as CandidateRecord);
  });
  return records;
}

export async function writeManifest(out: string, manifest: CurationManifest): Promise<void> {
  await writeFileAtomic(path.join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

export async function writeRecords(out: string, records: readonly CandidateRecord[]): Promise<void> {
  await writeFileAtomic(path.join(out, RECORDS_FILE), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/**
 * The records after a (re-)mining: each mined candidate with its mine outcome; one that passes
 * and was already carried further keeps what the later stages recorded.
 */
export function mergeMined(mined: readonly MinedCandidate[], previous: readonly CandidateRecord[], at: string, seconds: number): CandidateRecord[] {
  const old = new Map(previous.map((r) => [r.id, r]));
  return mined.map((c) => {
    const { dropped, ...rest } = c;
    const mine: StageOutcome = dropped ? { outcome: 'dropped', code: dropped.code, reason: dropped.reason, at, seconds } : { outcome: 'passed', at, seconds };
    const before = old.get(c.id);
    if (!dropped && before && before.stage !== 'mine') {
      return { ...before, ...rest, stages: { ...before.stages, mine } };
    }
    return dropped
      ? { ...rest, stage: 'mine', outcome: 'dropped', reason: dropped.reason, stages: { mine } }
      : { ...rest, stage: 'mine', outcome: 'pending', stages: { mine } };
  });
}
