// SWE-bench-style instances (SWE-bench, SWE-bench Verified, BeyondSWE) and SWE-Bench-CL's
// sequences of them, read and checked before anything is written. Each problem names the file,
// the instance and the field, and says what to do.
//
// An instance: instance_id, repo ("owner/name"), base_commit, test_patch, FAIL_TO_PASS and
// PASS_TO_PASS (lists of node ids; SWE-bench's files hold them as JSON text), and optionally
// problem_statement, hints_text, environment_setup_commit and version. The target test set is
// FAIL_TO_PASS ∪ PASS_TO_PASS; "resolved" means every F2P and every P2P test passes.
//
// A sequence file (SWE-Bench-CL): { "sequences": [ { "id", "repo", "tasks": [ { "metadata":
// { instance_id, base_commit, … }, "task": { problem_statement, hints_text }, "evaluation":
// { test_patch, FAIL_TO_PASS, PASS_TO_PASS, … } } ] } ] }, each sequence in task order.
import { UserError } from '../util/errors';
import { isRecord } from '../util/is-record';

export type { SweBenchInstance } from './swe-bench-instance-schema';
import { repoNameSchema, sweBenchFileInstanceSchema, type SweBenchInstance } from './swe-bench-instance-schema';
import { firstSchemaIssue } from '../records/schema-problem';

export interface SweBenchClSequence {
  id: string;
  repo: string;
  tasks: SweBenchInstance[];
}

type Json = Record<string, unknown>;

const isObject: (v: unknown) => v is Json = isRecord;

/** Reads a .json (one instance or a list) or .jsonl (one instance per line) file's text. */
export function parseSweBenchInstances(text: string, source: string): SweBenchInstance[] {
  const records = readRecords(text, source);
  if (records.length === 0) throw new UserError(`${source} holds no instance. Give a JSON object, a JSON list of them, or JSON Lines.`);
  const out = records.map(({ value, where }) => instanceFrom(value, `${source}${where}`));
  const seen = new Map<string, string>();
  records.forEach(({ where }, i) => {
    const id = out[i].instanceId;
    const first = seen.get(id);
    if (first !== undefined) throw new UserError(`${source}${where}: instance "${id}" appears twice (first${first}). Each instance_id must be unique.`);
    seen.set(id, where);
  });
  return out;
}

/** Reads SWE-Bench-CL's sequences file. */
export function parseSweBenchClSequences(text: string, source: string): SweBenchClSequence[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${source} is not JSON: ${(err as Error).message}. A sequence file is one JSON object with "sequences".`);
  }
  if (!isObject(doc) || !Array.isArray(doc.sequences))
    throw new UserError(`${source} has no "sequences" list. A sequence file is { "sequences": [ { "id", "repo", "tasks": [...] } ] }.`);
  if (doc.sequences.length === 0) throw new UserError(`${source}: "sequences" is empty.`);
  const ids = new Set<string>();
  return doc.sequences.map((seq: unknown, s): SweBenchClSequence => {
    const at = `${source}: sequence ${s + 1}`;
    if (!isObject(seq)) throw new UserError(`${at} is not an object.`);
    const id = str(seq.id, `${at}`, 'id');
    if (ids.has(id)) throw new UserError(`${at}: id "${id}" is used by an earlier sequence.`);
    ids.add(id);
    const repo = repoName(seq.repo, `${at} (${id})`, 'repo');
    if (!Array.isArray(seq.tasks) || seq.tasks.length === 0)
      throw new UserError(`${at} (${id}): "tasks" must be a non-empty list, in the order the tasks are to run.`);
    const tasks = seq.tasks.map((t: unknown, i) => {
      const where = `${at} (${id}), task ${i + 1}`;
      if (!isObject(t)) throw new UserError(`${where} is not an object.`);
      // SWE-Bench-CL nests the instance's fields; a flat instance is accepted as well.
      const flat: Json = isObject(t.metadata)
        ? { repo, ...t.metadata, ...(isObject(t.task) ? t.task : {}), ...(isObject(t.evaluation) ? t.evaluation : {}) }
        : { repo, ...t };
      const inst = instanceFrom(flat, where);
      if (inst.repo !== repo)
        throw new UserError(
          `${where} (${inst.instanceId}): repo "${inst.repo}" differs from the sequence's "${repo}". A sequence holds tasks of one repository.`,
        );
      return inst;
    });
    const seen = new Set<string>();
    for (const t of tasks) {
      if (seen.has(t.instanceId)) throw new UserError(`${at} (${id}): instance "${t.instanceId}" appears twice.`);
      seen.add(t.instanceId);
    }
    return { id, repo, tasks };
  });
}

function readRecords(text: string, source: string): { value: unknown; where: string }[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && !/}\s*\r?\n\s*{/.test(trimmed))) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (err) {
      throw new UserError(`${source} is not JSON: ${(err as Error).message}. Give a JSON object, a JSON list of them, or JSON Lines.`);
    }
    return Array.isArray(doc) ? (doc as unknown[]).map((value, i) => ({ value, where: `, item ${i + 1}` })) : [{ value: doc, where: '' }];
  }
  const out: { value: unknown; where: string }[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push({ value: JSON.parse(line), where: `, line ${i + 1}` });
    } catch (err) {
      throw new UserError(`${source}, line ${i + 1} is not JSON: ${(err as Error).message}. JSON Lines hold one instance per line.`);
    }
  });
  return out;
}

/** One instance checked against its schema; the first problem names where, the instance and the field. */
function instanceFrom(value: unknown, where: string): SweBenchInstance {
  const parsed = sweBenchFileInstanceSchema.safeParse(
    isObject(value) ? { ...value, FAIL_TO_PASS: decoded(value.FAIL_TO_PASS), PASS_TO_PASS: decoded(value.PASS_TO_PASS) } : value,
  );
  if (parsed.success) return parsed.data;
  const issue = firstSchemaIssue(parsed.error);
  const id = isObject(value) && typeof value.instance_id === 'string' && value.instance_id.trim() !== '' ? value.instance_id : undefined;
  const at = id === undefined ? where : `${where} (${id})`;
  const [field, ...rest] = issue.path;
  // A test list's item is named like FAIL_TO_PASS[0], and its message says what an item must be.
  if (rest.length > 0) return refuse(`${at}: ${field}[${rest[0]}] must be a non-empty test id.`);
  return refuse(field === undefined ? `${isObject(value) ? at : where}: ${issue.message}` : `${at}: ${field} ${issue.message}`);
}

/** A list of tests given (as SWE-bench's files do) as JSON text of one, decoded; text that is not JSON stays text. */
function decoded(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

function refuse(message: string): never {
  throw new UserError(message);
}

/** A sequence's repo, checked as an instance's. */
function repoName(v: unknown, where: string, field: string): string {
  const parsed = repoNameSchema.safeParse(v);
  if (!parsed.success) throw new UserError(`${where}: ${field} ${firstSchemaIssue(parsed.error).message}`);
  return parsed.data;
}

function str(v: unknown, where: string, field: string): string {
  if (v === undefined || v === null) throw new UserError(`${where}: ${field} is missing.`);
  if (typeof v !== 'string' || v.trim() === '') throw new UserError(`${where}: ${field} must be non-empty text.`);
  return v;
}
