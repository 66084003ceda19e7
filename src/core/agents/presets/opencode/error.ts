// opencode `run --format json`'s verdict: an `error` event.
import { isObject, jsonValues } from '../../reading/json-scan';
import { clip, messageOf } from '../../reading/reported-error';

export function opencodeError(stdout: string): string | undefined {
  for (const v of jsonValues(stdout)) {
    if (isObject(v) && v.type === 'error') return clip(`the CLI reported an error: ${messageOf(v.error) ?? messageOf(v) ?? 'no detail'}`);
  }
  return undefined;
}
