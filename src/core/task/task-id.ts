// Task ids name folders (data/<task_id>/, cache folders), so they must be safe single path segments.
import { UserError } from '../util/errors';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Why `id` is not a safe folder name, or undefined when it is. */
export function taskIdProblem(id: string): string | undefined {
  if (id === '') return 'it is empty';
  if (id.length > 200) return 'it is longer than 200 characters';
  if (id === '.' || id === '..') return 'it is "." or ".."';
  if (/[/\\]/.test(id)) return 'it contains a path separator';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'it contains control characters';
  if (/[<>:"|?*]/.test(id)) return 'it contains one of < > : " | ? *';
  if (/^\s|\s$/.test(id)) return 'it starts or ends with whitespace';
  if (/\.$/.test(id)) return 'it ends with a dot';
  if (WINDOWS_RESERVED.test(id)) return 'it is a reserved device name on Windows';
  return undefined;
}

export function assertSafeTaskId(id: string, where: string): void {
  const problem = taskIdProblem(id);
  if (problem) {
    throw new UserError(`${where}: task_id "${id}" cannot be used as a folder name because ${problem}. Rename the task.`);
  }
}

/** Turns arbitrary text into a safe id fragment (for ids we derive ourselves). */
export function slugForId(text: string): string {
  const slug = text
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return slug === '' ? 'repo' : slug;
}
