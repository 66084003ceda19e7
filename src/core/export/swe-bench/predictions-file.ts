// A predictions file as SWE-bench's harness takes it: JSON Lines (one prediction a line) or a
// JSON list, each { instance_id, model_name_or_path, model_patch }. Any other tool may have made
// it: each line is checked, and a bad one is refused with its line number before anything runs.
import { readGivenFile } from '../../util/given-file';
import { taskIdProblem } from '../../task/task-id';
import { UserError, errorMessage } from '../../util/errors';
import { isRecord } from '../../util/is-record';
import { modelFolderName, type Prediction } from './harness-files';

/** Reads and checks `file`; every problem names the file and the line (or item). */
export async function readPredictionsFile(file: string): Promise<Prediction[]> {
  const { abs, text } = await readGivenFile(file, 'a predictions file (.jsonl or .json)');
  return parsePredictions(text, abs);
}

function parsePredictions(text: string, source: string): Prediction[] {
  const trimmed = text.trim();
  const items: { value: unknown; where: string }[] = [];
  if (trimmed.startsWith('[')) {
    let doc: unknown;
    try {
      doc = JSON.parse(trimmed);
    } catch (err) {
      throw new UserError(`${source} is not JSON: ${errorMessage(err)}. Give JSON Lines (one prediction a line) or a JSON list.`);
    }
    (doc as unknown[]).forEach((value, i) => items.push({ value, where: `item ${i + 1}` }));
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        items.push({ value: JSON.parse(line), where: `line ${i + 1}` });
      } catch (err) {
        throw new UserError(`${source}, line ${i + 1} is not JSON (${errorMessage(err)}). Each line holds one prediction as a JSON object.`);
      }
    });
  }
  if (items.length === 0) throw new UserError(`${source} holds no prediction.`);
  const seen = new Map<string, string>();
  return items.map(({ value, where }) => {
    const p = predictionFrom(value, `${source}, ${where}`);
    const first = seen.get(p.instance_id);
    if (first) throw new UserError(`${source}, ${where}: instance "${p.instance_id}" already has a prediction (${first}). Give one per instance.`);
    seen.set(p.instance_id, where);
    return p;
  });
}

function predictionFrom(value: unknown, at: string): Prediction {
  const fields = 'a prediction is {"instance_id", "model_name_or_path", "model_patch"}';
  if (!isRecord(value)) throw new UserError(`${at} is not a JSON object: ${fields}.`);
  const id = value.instance_id;
  if (typeof id !== 'string' || id.trim() === '')
    throw new UserError(`${at}: instance_id is ${id === undefined ? 'missing' : 'not non-empty text'}; ${fields}.`);
  const model = value.model_name_or_path;
  if (typeof model !== 'string' || model.trim() === '')
    throw new UserError(`${at} (${id}): model_name_or_path is ${model === undefined ? 'missing' : 'not non-empty text'}; ${fields}.`);
  // It names a folder of the results, as the harness names it.
  const problem = taskIdProblem(modelFolderName(model));
  if (problem) throw new UserError(`${at} (${id}): model_name_or_path "${model.slice(0, 80)}" cannot name a folder because ${problem}.`);
  const patch = value.model_patch;
  if (patch !== null && patch !== undefined && typeof patch !== 'string') throw new UserError(`${at} (${id}): model_patch must be text (a diff) or null.`);
  return { instance_id: id, model_name_or_path: model, model_patch: patch ?? null };
}

/** predictions.jsonl's text: one prediction a line, in the order given. */
export function predictionsText(predictions: readonly Prediction[]): string {
  return (
    predictions.map((p) => JSON.stringify({ instance_id: p.instance_id, model_name_or_path: p.model_name_or_path, model_patch: p.model_patch })).join('\n') +
    '\n'
  );
}
