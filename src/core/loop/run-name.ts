// Run names become a folder name (.sweci/runs/<run>) and a git branch (sweci/<run>), so they
// are restricted to a slug that is valid as both on every platform.
import { UserError } from '../util/errors';

/** The run a human-history replay records into. */
export const HUMAN_HISTORY_RUN = 'human-history';

const RUN_NAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
// Windows device names cannot be folder names.
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/;

/** Why `name` is not a run name, or undefined when it is one. */
export function runNameProblem(name: string): string | undefined {
  if (!RUN_NAME.test(name)) {
    return 'use 1–64 lowercase letters, digits, ".", "_" or "-", starting and ending with a letter or digit';
  }
  if (name.includes('..')) return '".." is not allowed';
  if (name.endsWith('.lock')) return 'a name may not end with ".lock" (git refuses such branch names)';
  if (RESERVED.test(name)) return `"${name}" is a reserved device name on Windows`;
  return undefined;
}

export function assertRunName(name: string): void {
  const problem = runNameProblem(name);
  if (problem) throw new UserError(`"${name}" cannot be a run name: ${problem}.`);
}

/** A valid run name made from free text ("Claude Code #2" → "claude-code-2"); "" when nothing is left. */
export function slugifyRunName(text: string): string {
  let s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-');
  s = s
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[^a-z0-9]+$/, '');
  if (s.endsWith('.lock')) s = s.slice(0, -5).replace(/[^a-z0-9]+$/, '');
  if (RESERVED.test(s)) s = `run-${s}`;
  return runNameProblem(s) ? '' : s;
}

/** The app/code branch that holds a run's iteration commits. */
export function runBranch(run: string): string {
  return `sweci/${run}`;
}
