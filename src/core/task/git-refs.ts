// Refs and shas come from CSV files and user input: validate them before they reach git's argv.
import { AbortError, UserError, errorMessage, isAbortError } from '../util/errors';
import { gitAt } from '../util/git';

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Why `ref` is not acceptable, or undefined. Accepts what `git check-ref-format --allow-onelevel`
 * accepts (plus `HEAD`, hex shas and `~N`/`^N` ancestry suffixes), and never anything git could
 * read as an option.
 */
function refProblem(ref: string): string | undefined {
  // Ancestry suffixes (HEAD~10, v1.2^2) are plain revision syntax, never options: check the name before them.
  const suffix = /(?:[~^]\d*)+$/.exec(ref);
  if (suffix && suffix.index > 0) return refProblem(ref.slice(0, suffix.index));
  if (ref === '') return 'it is empty';
  if (ref.length > 255) return 'it is longer than 255 characters';
  if (ref.startsWith('-')) return 'it starts with "-", so git would read it as an option';
  if (/\s/.test(ref)) return 'it contains whitespace';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(ref)) return 'it contains control characters';
  if (ref.includes('..')) return 'it contains ".."';
  if (ref.includes('@{')) return 'it contains "@{"';
  if (ref === '@') return 'it is "@"';
  if (/[~^:?*[\\]/.test(ref)) return 'it contains one of ~ ^ : ? * [ \\';
  if (ref.startsWith('/') || ref.endsWith('/') || ref.includes('//')) return 'it has a leading, trailing or doubled "/"';
  if (ref.endsWith('.')) return 'it ends with "."';
  for (const part of ref.split('/')) {
    if (part.startsWith('.')) return 'a "/"-separated part starts with "."';
    if (part.endsWith('.lock')) return 'a "/"-separated part ends with ".lock"';
  }
  return undefined;
}

export function assertSafeRef(ref: string, what = 'ref'): void {
  const problem = refProblem(ref);
  if (problem) {
    throw new UserError(`The ${what} "${ref}" is not a valid git ref or commit sha: ${problem}. Give a branch, tag or commit sha.`);
  }
}

export function isFullSha(value: string): boolean {
  return FULL_SHA.test(value);
}

export interface ResolveOptions {
  signal?: AbortSignal;
  /** Names the ref in messages, e.g. "base ref". */
  what?: string;
  /** The user's own repository (a git pair's source): read with the user's git config. */
  userConfig?: boolean;
}

/** Resolves `ref` in the repository at `repoPath` to a full commit sha; unknown refs are UserErrors. */
export async function resolveCommit(repoPath: string, ref: string, options: ResolveOptions = {}): Promise<string> {
  const what = options.what ?? 'ref';
  assertSafeRef(ref, what);
  let out: string;
  try {
    // --end-of-options: even a ref that slipped past validation cannot become an option.
    out = await gitAt(repoPath, { signal: options.signal, userConfig: options.userConfig }).raw([
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${ref}^{commit}`,
    ]);
  } catch (err) {
    if (options.signal?.aborted) throw new AbortError();
    if (isAbortError(err)) throw err;
    const msg = errorMessage(err);
    if (/not a git repository/i.test(msg)) {
      throw new UserError(`${repoPath} is not a git repository. Choose a folder that holds a git repository.`, { detail: msg, cause: err });
    }
    if (/ambiguous/i.test(msg)) {
      throw new UserError(`The ${what} "${ref}" is ambiguous in ${repoPath}. Give more characters of the sha.`, { detail: msg, cause: err });
    }
    throw new UserError(`The ${what} "${ref}" is not a commit in ${repoPath}. Check the ref or sha (the repository may be missing that history).`, {
      detail: msg,
      cause: err,
    });
  }
  const sha = out.trim();
  if (!isFullSha(sha)) {
    throw new UserError(`The ${what} "${ref}" is not a commit in ${repoPath}. Check the ref or sha (the repository may be missing that history).`);
  }
  return sha;
}
