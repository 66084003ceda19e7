// A curation's folder: `curation.json` says whose curation it is and with which rules,
// `curation.jsonl` holds one line per candidate with every stage's outcome. Both are written
// whole and renamed into place, so a kill leaves the last finished state, never half a line;
// running again reads them and continues.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { jsonRecordFile, parseJsonLines, readIfPresent } from '../records/record-file';
import { writeFileAtomic } from '../util/fs-atomic';
import { UserError } from '../util/errors';
import type { MinedCandidate } from './mine';

export const CURATION_FORMAT = 'sweci-curation';
export const STAGES = ['mine', 'env', 'filter', 'pack'] as const;
export type Stage = (typeof STAGES)[number];

const manifestSchema = z.object({
  format: z.literal(CURATION_FORMAT),
  version: z.literal(1),
  /** The repository as given: an absolute path or a clone URL. */
  source: z.string(),
  branch: z.string(),
  tip: z.string(),
  commits: z.number().int(),
  dependencyChanges: z.number().int(),
  options: z.object({
    lockfiles: z.boolean(),
    minChangedLines: z.number().int(),
    minSourceLines: z.number().int(),
    maxSpanCommits: z.number().int().optional(),
  }),
  /**
   * The options each later stage last ran with (a resumed stage may be given others): the
   * record of how the dataset was made. An index URL's password is never written.
   */
  stageOptions: z
    .object({
      env: z
        .object({
          baseImage: z.string().optional(),
          indexUrl: z.string().optional(),
          findLinks: z.string().optional(),
          maxRepairs: z.number().int(),
          workers: z.number().int().optional(),
          /** --repair-agent (the agent's label, no secrets) and --agent-repairs. */
          repairAgent: z.string().optional(),
          agentRepairs: z.number().int().optional(),
        })
        .optional(),
      filter: z.object({ minGap: z.number().int(), top: z.number().int(), workers: z.number().int().optional() }).optional(),
      pack: z.object({ split: z.string() }).optional(),
    })
    .optional(),
  minedAt: z.string(),
  mineSeconds: z.number(),
  problems: z.array(z.string()),
});
export type CurationManifest = z.infer<typeof manifestSchema>;

const stageOutcomeSchema = z.object({
  outcome: z.enum(['passed', 'dropped']),
  /** A short code counted in the funnel (e.g. min-changed-lines). */
  code: z.string().optional(),
  reason: z.string().optional(),
  at: z.string(),
  seconds: z.number(),
});
export type StageOutcome = z.infer<typeof stageOutcomeSchema>;

/** One candidate: what mining found (MinedCandidate's fields) and each stage's outcome. */
const candidateRecordSchema = z.object({
  id: z.string(),
  base: z.string(),
  oracle: z.string(),
  baseIndex: z.number().int(),
  oracleIndex: z.number().int(),
  commits: z.number().int(),
  baseTime: z.string(),
  oracleTime: z.string(),
  days: z.number(),
  changedLines: z.number().int(),
  sourceLines: z.number().int(),
  dependencies: z.number().int(),
  endedBy: z.object({ commit: z.string(), added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
  /** The last stage that ran on it. */
  stage: z.enum(STAGES),
  /** pending: waits for the next stage; dropped: that stage dropped it; kept: in the dataset. */
  outcome: z.enum(['pending', 'dropped', 'kept']),
  reason: z.string().optional(),
  stages: z.object({
    mine: stageOutcomeSchema.optional(),
    env: stageOutcomeSchema.optional(),
    filter: stageOutcomeSchema.optional(),
    pack: stageOutcomeSchema.optional(),
  }),
  image: z.string().optional(),
  gap: z.number().optional(),
  /** The environment's key before any repair: candidates with the same one share the image. */
  envKey: z.string().optional(),
  baseImage: z.string().optional(),
  /**
   * Where the candidate's own oracle tests are collected when its image is shared: `filter` when
   * the environment stage took an image another candidate's collection verified, and the
   * filter's oracle run counts as the collection; `env` when that run showed it may not do (a
   * missing module, no launch) and the environment stage must collect again. Absent: collected
   * in the environment stage.
   */
  collectIn: z.enum(['env', 'filter']).optional(),
  /** The self-repairs the environment needed, in order. */
  repairs: z.array(z.object({ module: z.string(), distribution: z.string(), via: z.string() })).optional(),
  /** The agent's tries at the Dockerfile after the rules gave up (--repair-agent), in order. */
  agentRepairs: z
    .array(
      z.object({
        try: z.number().int(),
        agent: z.string(),
        outcome: z.enum(['built', 'failed', 'refused']),
        reason: z.string().optional(),
        image: z.string().optional(),
        log: z.string().optional(),
        seconds: z.number(),
      }),
    )
    .optional(),
  /** Tests of the oracle that pass on the oracle, and on the base (the filter's runs). */
  oraclePassed: z.number().int().optional(),
  basePassed: z.number().int().optional(),
  /** The task's name in the packed dataset. */
  taskId: z.string().optional(),
});
export type CandidateRecord = z.infer<typeof candidateRecordSchema>;

const WHEN_DAMAGED = 'sweci curate writes it whole; move the curation folder aside and run again (mining starts over, nothing else is lost).';
const manifestFile = jsonRecordFile({ schema: manifestSchema, whenDamaged: WHEN_DAMAGED });

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
  return manifestFile.read(path.join(out, MANIFEST_FILE));
}

/** The candidates, in the file's order. */
export async function readRecords(out: string): Promise<CandidateRecord[]> {
  const file = path.join(out, RECORDS_FILE);
  const text = await readIfPresent(file);
  return text === undefined ? [] : parseJsonLines(text, file, candidateRecordSchema, WHEN_DAMAGED);
}

export async function writeManifest(out: string, manifest: CurationManifest): Promise<void> {
  await manifestFile.write(path.join(out, MANIFEST_FILE), manifest);
}

export async function writeRecords(out: string, records: readonly CandidateRecord[]): Promise<void> {
  for (const r of records) {
    const checked = candidateRecordSchema.safeParse(r);
    // A record that fails its own schema is a bug: never written.
    if (!checked.success) throw new Error(`refusing to write ${RECORDS_FILE}: candidate ${r.id}: ${checked.error.message}`);
  }
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

/** Sent back by the filter stage: the environment stage collects its oracle's tests itself. */
export function sentBack(r: CandidateRecord): boolean {
  return r.stage === 'mine' && r.outcome === 'pending' && r.collectIn === 'env';
}
