// Codex `exec --json`'s verdict: `turn.failed`, or an `error` event that no completed turn
// followed (it prints "Reconnecting… n/5" as `error` events and may still complete the turn).
import { isObject, jsonValues } from '../../reading/json-scan';
import { clip, messageOf } from '../../reading/reported-error';

export function codexError(stdout: string): string | undefined {
  let error: string | undefined;
  for (const v of jsonValues(stdout)) {
    if (!isObject(v)) continue;
    if (v.type === 'turn.failed') return clip(`the turn failed: ${messageOf(v.error) ?? 'no detail'}`);
    if (v.type === 'error') error = clip(`the CLI reported an error: ${messageOf(v) ?? 'no detail'}`);
    if (v.type === 'turn.completed') error = undefined;
  }
  return error;
}
