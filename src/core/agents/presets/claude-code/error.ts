// Claude Code's verdict: its (last) `result` object, alone (json) or ending the event stream
// (stream-json). Qwen Code prints the same shape (presets/qwen/error.ts).
import { isObject, jsonValues, type Json, type JsonObject } from '../../reading/json-scan';
import { API_ERROR_TEXT, clip, messageOf } from '../../reading/reported-error';

/** The error the last `result` object among `values` reports. */
export function resultError(values: Json[]): string | undefined {
  const results = values.filter((v): v is JsonObject => isObject(v) && v.type === 'result');
  const r = results[results.length - 1];
  if (!r) return undefined;
  const text = typeof r.result === 'string' ? r.result : undefined;
  if (r.is_error === true)
    return clip(`the CLI reported an error${typeof r.subtype === 'string' ? ` (${r.subtype})` : ''}: ${text ?? messageOf(r.error) ?? 'no detail'}`);
  if (typeof r.subtype === 'string' && r.subtype !== 'success') return clip(`the CLI ended with "${r.subtype}"${text ? `: ${text}` : ''}`);
  if (text && API_ERROR_TEXT.test(text)) return clip(`the model call failed: ${text}`);
  return undefined;
}

export function claudeCodeError(stdout: string): string | undefined {
  return resultError(jsonValues(stdout));
}
