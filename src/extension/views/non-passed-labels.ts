// Text for the Non-passed view, kept apart from the VS Code API.
import type { NonPassedEntry } from '../../core/gap/non-passed';

/** The node id without its file: `TestDiv::test_div[a/b]`. */
export function testLabel(entry: NonPassedEntry): string {
  const prefix = `${entry.file}::`;
  return entry.nodeid.startsWith(prefix) ? entry.nodeid.slice(prefix.length) : entry.nodeid;
}

export function kindLabel(entry: NonPassedEntry): string {
  switch (entry.kind) {
    case 'error':
      return entry.stage ? `Error at ${entry.stage}` : 'Error';
    case 'failed':
      return entry.stage && entry.stage !== 'call' ? `Failed at ${entry.stage}` : 'Failed';
    case 'not-collected':
      return 'Not collected';
    case 'skipped':
      return `Not run (${entry.outcome ?? 'skipped'})`;
  }
}

/** The error line pytest printed, without its `E   ` gutter. */
export function testDescription(entry: NonPassedEntry): string {
  const reason = (entry.headline ?? entry.reason)?.replace(/^E\s+/, '').trim();
  if (entry.kind === 'error') return `${entry.stage ?? 'error'}: ${reason ?? ''}`.trim();
  if (entry.kind === 'not-collected') return 'not collected in the current run';
  return reason ?? '';
}
