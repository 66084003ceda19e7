// Exit code 0 is no proof of work: agent CLIs exit 0 after an API error, a refused key or an
// endpoint that never answered. These read each CLI's own verdict from its output: the error it
// reports, or undefined when it reports none. Which reader a preset uses is the preset's own
// (presets/<id>.ts); agent-output.ts calls it and never lets it throw.
import { isObject, jsonValues, type Json, type JsonObject } from './json-scan';

const MAX = 300;

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX ? `${one.slice(0, MAX - 1)}…` : one;
}

function messageOf(v: Json | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (!isObject(v)) return undefined;
  for (const k of ['message', 'error', 'detail']) {
    const m = messageOf(v[k]);
    if (m) return m;
  }
  if (isObject(v.data)) return messageOf(v.data);
  return typeof v.name === 'string' ? v.name : undefined;
}

/** The text a CLI prints as its answer when the model call failed (qwen: "[API Error: …]"). */
const API_ERROR_TEXT = /^\s*\[API Error\b/;

/** Claude Code and Qwen Code: the last `result` object. */
function fromResult(values: Json[]): string | undefined {
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

/**
 * Gemini CLI: `{"error": {...}}` in its JSON output (on stderr when the run failed); with
 * stream-json, a `result` whose status is "error" (its error object, else the last error event's
 * message). A failed tool (a `tool_result` with an error) is the model's to handle, and warning
 * events are no verdict.
 */
function fromGemini(values: Json[]): string | undefined {
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

/**
 * Codex `exec --json`: `turn.failed`, or an `error` event that no completed turn followed (it
 * prints "Reconnecting… n/5" as `error` events and may still complete the turn).
 */
function fromCodex(values: Json[]): string | undefined {
  let error: string | undefined;
  for (const v of values) {
    if (!isObject(v)) continue;
    if (v.type === 'turn.failed') return clip(`the turn failed: ${messageOf(v.error) ?? 'no detail'}`);
    if (v.type === 'error') error = clip(`the CLI reported an error: ${messageOf(v) ?? 'no detail'}`);
    if (v.type === 'turn.completed') error = undefined;
  }
  return error;
}

/** opencode `run --format json`: an `error` event. */
function fromOpencode(values: Json[]): string | undefined {
  for (const v of values) {
    if (isObject(v) && v.type === 'error') return clip(`the CLI reported an error: ${messageOf(v.error) ?? messageOf(v) ?? 'no detail'}`);
  }
  return undefined;
}

/** Claude Code: its (last) `result` object, alone (json) or ending the event stream (stream-json). */
export function claudeCodeError(stdout: string): string | undefined {
  return fromResult(jsonValues(stdout));
}

/** Qwen Code: Claude-shaped results; early builds printed Gemini CLI's error object. */
export function qwenError(stdout: string): string | undefined {
  const values = jsonValues(stdout);
  return fromResult(values) ?? fromGemini(values);
}

/** Gemini CLI prints its error object on stderr (json) or its failing result on stdout (stream-json). */
export function geminiError(stdout: string, stderr: string): string | undefined {
  return fromGemini([...jsonValues(stdout), ...jsonValues(stderr)]);
}

export function codexError(stdout: string): string | undefined {
  return fromCodex(jsonValues(stdout));
}

export function opencodeError(stdout: string): string | undefined {
  return fromOpencode(jsonValues(stdout));
}

/** A custom command's output ('auto'): every structured form. */
export function anyReportedError(stdout: string): string | undefined {
  const values = jsonValues(stdout);
  return fromResult(values) ?? fromCodex(values) ?? fromOpencode(values);
}
