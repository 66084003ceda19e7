// Qwen Code's verdict: Claude-shaped results; early builds printed Gemini CLI's error object.
import { resultError } from '../claude-code/error';
import { geminiShapedError } from '../gemini/error';
import { jsonValues } from '../../reading/json-scan';

export function qwenError(stdout: string): string | undefined {
  const values = jsonValues(stdout);
  return resultError(values) ?? geminiShapedError(values);
}
