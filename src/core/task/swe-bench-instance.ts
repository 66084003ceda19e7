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
import { taskIdProblem } from './task-id';
import { isRecord } from '../util/is-record';

export type { SweBenchInstance } from './swe-bench-instance-schema';
import type { SweBenchInstance } from './swe-bench-instance-schema';

export interface ClSequence {
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
export function parseClSequences(text: string, source: string): ClSequence[] {
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
  return doc.sequences.map((seq: unknown, s): ClSequence => {
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

function instanceFrom(value: unknown, where: string): SweBenchInstance {
  if (!isObject(value)) throw new UserError(`${where}: an instance must be a JSON object.`);
  const rawId = value.instance_id;
  const id = str(rawId, where, 'instance_id');
  const at = `${where} (${id})`;
  const idProblem = taskIdProblem(id);
  if (idProblem) throw new UserError(`${at}: instance_id cannot name a folder because ${idProblem}.`);
  const failToPass = testList(value.FAIL_TO_PASS, at, 'FAIL_TO_PASS');
  if (failToPass.length === 0) throw new UserError(`${at}: FAIL_TO_PASS is empty; an instance needs at least one test that the fix makes pass.`);
  const passToPass = testList(value.PASS_TO_PASS, at, 'PASS_TO_PASS');
  const p2p = new Set(passToPass);
  const both = failToPass.filter((t) => p2p.has(t));
  if (both.length)
    throw new UserError(
      `${at}: ${both[0]} is in both FAIL_TO_PASS and PASS_TO_PASS${both.length > 1 ? ` (and ${both.length - 1} more)` : ''}; a test is in one of them.`,
    );
  const inst: SweBenchInstance = {
    instanceId: id,
    repo: repoName(value.repo, at, 'repo'),
    baseCommit: commit(value.base_commit, at, 'base_commit'),
    testPatch: str(value.test_patch, at, 'test_patch'),
    failToPass,
    passToPass,
  };
  if (value.problem_statement !== undefined && value.problem_statement !== null) inst.problemStatement = text(value.problem_statement, at, 'problem_statement');
  if (value.hints_text !== undefined && value.hints_text !== null) inst.hintsText = text(value.hints_text, at, 'hints_text');
  if (value.environment_setup_commit !== undefined && value.environment_setup_commit !== null)
    inst.environmentSetupCommit = commit(value.environment_setup_commit, at, 'environment_setup_commit');
  if (value.version !== undefined && value.version !== null) {
    if (typeof value.version !== 'string' && typeof value.version !== 'number') throw new UserError(`${at}: version must be text or a number.`);
    inst.version = String(value.version);
  }
  return inst;
}

function str(v: unknown, where: string, field: string): string {
  if (v === undefined || v === null) throw new UserError(`${where}: ${field} is missing.`);
  if (typeof v !== 'string' || v.trim() === '') throw new UserError(`${where}: ${field} must be non-empty text.`);
  return v;
}

function text(v: unknown, where: string, field: string): string {
  if (typeof v !== 'string') throw new UserError(`${where}: ${field} must be text.`);
  return v;
}

function repoName(v: unknown, where: string, field: string): string {
  const s = str(v, where, field);
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(s) || s.split('/').some((p) => p === '.' || p === '..')) {
    throw new UserError(`${where}: ${field} "${s}" is not "owner/name".`);
  }
  return s;
}

function commit(v: unknown, where: string, field: string): string {
  const s = str(v, where, field);
  if (!/^[0-9a-f]{7,40}$/i.test(s)) throw new UserError(`${where}: ${field} "${s.slice(0, 60)}" is not a commit id (7 to 40 hex digits).`);
  return s.toLowerCase();
}

/** A list of node ids, given as a list or (as SWE-bench's files do) as JSON text of one. */
function testList(v: unknown, where: string, field: string): string[] {
  if (v === undefined || v === null) throw new UserError(`${where}: ${field} is missing.`);
  let list: unknown = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      throw new UserError(`${where}: ${field} is text that is not a JSON list of test ids.`);
    }
  }
  if (!Array.isArray(list)) throw new UserError(`${where}: ${field} must be a list of test ids.`);
  const out = new Set<string>();
  for (const [i, t] of list.entries()) {
    if (typeof t !== 'string' || t.trim() === '') throw new UserError(`${where}: ${field}[${i}] must be a non-empty test id.`);
    out.add(t);
  }
  return [...out];
}
