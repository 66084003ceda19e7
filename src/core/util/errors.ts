// Errors the user can act on. Every bad input (CSV, zip, ref, folder) surfaces as a UserError.

/**
 * A failure caused by input the user chose (a file, a folder, a ref), not by a bug.
 * The message says what happened and what to do; `detail` holds the raw cause (tool output,
 * parser message) for a log or an expandable section.
 */
export class UserError extends Error {
  readonly detail?: string;
  /**
   * The setting to change, as its key under `sweci.` (e.g. "architect.agent"), when one is at
   * fault or is the fix: the extension offers to open it.
   */
  readonly setting?: string;

  constructor(message: string, options?: { detail?: string; cause?: unknown; setting?: string }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'UserError';
    if (options?.detail !== undefined) this.detail = options.detail;
    if (options?.setting !== undefined) this.setting = options.setting;
  }
}

/** Thrown when an AbortSignal fired; `name` matches the DOM AbortError so callers can test either way. */
export class AbortError extends Error {
  constructor(message = 'The operation was cancelled.') {
    super(message);
    this.name = 'AbortError';
  }
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** Throws an AbortError when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError();
}

/** The message of anything thrown, for wrapping into a UserError's detail. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
