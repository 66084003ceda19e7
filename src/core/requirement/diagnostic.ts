// A problem found in a requirement document, with a position a language server can show.
import type { Wording } from './diagnostic-wording';

export type DiagnosticSeverity = 'error' | 'warning';

export type DiagnosticCode =
  | 'missing-file'
  | 'not-a-file'
  | 'empty'
  | 'not-well-formed'
  | 'markdown-fence'
  | 'no-items'
  | 'too-many-items'
  | 'root-is-item'
  | 'missing-field'
  | 'empty-field'
  | 'placeholder-field'
  | 'duplicate-field'
  | 'duplicate-requirement'
  | 'too-large'
  | 'missing-location-file'
  | 'unknown-test';

export interface Diagnostic {
  /** In English (the loop, the CLI). */
  message: string;
  /** What `message` was worded from, for a display in another language (absent: `message` only). */
  wording?: Wording;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Where the offending text ends (1-based, exclusive); absent when only a point is known. */
  endLine?: number;
  endColumn?: number;
  severity: DiagnosticSeverity;
  code: DiagnosticCode;
  /** Text that would fix it in place of the range (an editor offers it as a quick fix). */
  replacement?: string;
}
