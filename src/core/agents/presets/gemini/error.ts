// Gemini CLI's verdict: `{"error": {...}}` in its JSON output (on stderr when the run failed);
// with stream-json, a `result` whose status is "error" (its error object, else the last error
// event's message). A failed tool (a `tool_result` with an error) is the model's to handle, and
// warning events are no verdict.
import { isObject, jsonValues, type Json } from '../../reading/json-scan';
import { API_ERROR_TEXT, clip, messageOf } from '../../reading/reported-error';

/** The error Gemini-shaped `values` report (Qwen Code's early builds printed these too). */
export function geminiShapedError(values: Json[]): string | undefined {
  let lastError: string | undefined;
  for (const v of values) {
    if (!isObject(v)) continue;
    if (v.type === 'tool_result' || v.type === 'tool_use' || v.type === 'message' || v.type === 'init') continue;
    if (v.type === 'error') {
      if (v.severity === 'error') lastError = messageOf(v.message);
      continue;
    }
    if (v.type === 'result' && v.status === 'error' && (v.error === undefined || v.error === null))
      return clip(`the CLI reported an error: ${lastError ?? 'no detail'}`);
    if (v.error !== undefined && v.error !== null) return clip(`the CLI reported an error: ${messageOf(v.error) ?? JSON.stringify(v.error)}`);
    if (typeof v.response === 'string' && API_ERROR_TEXT.test(v.response)) return clip(`the model call failed: ${v.response}`);
  }
  return undefined;
}

/** Its error object on stderr (json) or its failing result on stdout (stream-json). */
export function geminiError(stdout: string, stderr: string): string | undefined {
  return geminiShapedError([...jsonValues(stdout), ...jsonValues(stderr)]);
}
