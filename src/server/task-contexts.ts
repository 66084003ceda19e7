// The task each requirement.xml belongs to, and what it is checked against (app/code's files,
// summary.jsonl, the tests found in app/code), loaded once and reloaded when those change.
// A reload keeps answering from the previous context meanwhile (stale while revalidating).
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRequirementContext, type RequirementContext } from '../core/requirement/requirement-context';

/** `<task>/app/requirement.xml` → `<task>`; undefined for any other document. */
export function taskRootOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  const file = fileURLToPath(uri);
  if (path.basename(file) !== 'requirement.xml' || path.basename(path.dirname(file)) !== 'app') return undefined;
  const root = path.dirname(path.dirname(file));
  return existsSync(path.join(root, 'app', 'code')) ? root : undefined;
}

interface Entry {
  current?: RequirementContext;
  loading?: Promise<RequirementContext>;
  stale: boolean;
}

export class TaskContexts {
  private readonly entries = new Map<string, Entry>();

  /** `onReloaded` runs after a context changed under documents already answered from the old one. */
  constructor(
    private readonly onReloaded: (taskRoot: string) => void,
    private readonly onError: (message: string) => void,
  ) {}

  async get(taskRoot: string): Promise<RequirementContext> {
    let entry = this.entries.get(taskRoot);
    if (!entry) {
      entry = { stale: true };
      this.entries.set(taskRoot, entry);
    }
    if (entry.stale && !entry.loading) this.reload(taskRoot, entry);
    return entry.current ?? (entry.loading as Promise<RequirementContext>);
  }

  /** Marks the tasks holding any of these files as changed. */
  invalidate(files: readonly string[]): void {
    for (const [root, entry] of this.entries) {
      const app = path.join(root, 'app') + path.sep;
      if (files.some((f) => f.startsWith(app))) {
        entry.stale = true;
        if (!entry.loading) this.reload(root, entry);
      }
    }
  }

  private reload(taskRoot: string, entry: Entry): void {
    entry.stale = false;
    const hadOne = entry.current !== undefined;
    entry.loading = loadRequirementContext(taskRoot);
    entry.loading.then(
      (ctx) => {
        entry.current = ctx;
        entry.loading = undefined;
        if (entry.stale) this.reload(taskRoot, entry);
        else if (hadOne) this.onReloaded(taskRoot);
      },
      (err: unknown) => {
        entry.loading = undefined;
        entry.stale = true; // the next request tries again
        this.onError(`could not read the task at ${taskRoot}: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }
}
