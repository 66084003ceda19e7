// The task each requirement.xml belongs to, and what it is checked against (app/code's files,
// summary.jsonl, the tests found in app/code), loaded once and reloaded when those change.
// A reload keeps answering from the previous context meanwhile (stale while revalidating).
// The client's file events are the fast path; they do not always come (in a full integration
// run a created file under app/code went unreported), so a cheap key of the inputs (summary's
// stat, app/code's file names) is also checked before answering and every few seconds.
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRequirementContext, MAX_CODE_FILES, SKIPPED_DIRS, type RequirementContext } from '../core/requirement/requirement-context';
import { taskFolder } from '../core/workspace/task-folder';
import { errorMessage } from '../core/util/errors';

/** What a context is built from, cheaply: summary.jsonl's stat and the names under app/code. */
export async function inputsKey(taskRoot: string): Promise<string> {
  const layout = taskFolder(taskRoot);
  const hash = createHash('sha1');
  const st = await fs.stat(layout.summaryFile).catch(() => undefined);
  hash.update(st ? `${st.size}:${st.mtimeMs}:${st.ino}\n` : 'no summary\n');
  let seen = 0;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (++seen > MAX_CODE_FILES) return;
      if (e.isDirectory()) {
        if (SKIPPED_DIRS.has(e.name)) continue;
        hash.update(`${rel}${e.name}/\n`);
        await walk(path.join(dir, e.name), `${rel}${e.name}/`);
      } else hash.update(`${rel}${e.name}\n`);
    }
  };
  await walk(layout.codeDir, '');
  return hash.digest('hex');
}

/** `<task>/app/requirement.xml` → `<task>`; undefined for any other document. */
export function taskRootOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  const file = fileURLToPath(uri);
  // The layout's own requirement file, for the folder that would hold it there.
  const task = taskFolder(path.dirname(path.dirname(file)));
  if (task.requirementFile !== file) return undefined;
  return existsSync(task.codeDir) ? task.root : undefined;
}

interface Entry {
  current?: RequirementContext;
  loading?: Promise<RequirementContext>;
  stale: boolean;
  /** inputsKey when the current context was loaded, and when it was last compared. */
  key?: string;
  checkedAt?: number;
}

const CHECK_EVERY_MS = 1000;

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
    let changed = false;
    if (!entry.stale && !entry.loading && entry.current && Date.now() - (entry.checkedAt ?? 0) > CHECK_EVERY_MS) {
      entry.checkedAt = Date.now();
      changed = (await inputsKey(taskRoot)) !== entry.key;
      entry.stale ||= changed;
    }
    if (entry.stale && !entry.loading) this.reload(taskRoot, entry);
    // A change seen just now is waited for; otherwise the last context answers while a reload runs.
    if (changed || !entry.current) return entry.loading as Promise<RequirementContext>;
    return entry.current;
  }

  /** Compares the inputs of these tasks with their contexts' and reloads the changed ones. */
  async recheck(taskRoots: Iterable<string>): Promise<void> {
    for (const root of taskRoots) {
      const entry = this.entries.get(root);
      if (!entry?.current || entry.loading) continue;
      entry.checkedAt = Date.now();
      if ((await inputsKey(root)) !== entry.key) {
        entry.stale = true;
        if (!entry.loading) this.reload(root, entry);
      }
    }
  }

  /** Marks the tasks holding any of these files as changed. */
  invalidate(files: readonly string[]): void {
    for (const [root, entry] of this.entries) {
      const app = taskFolder(root).appDir + path.sep;
      if (files.some((f) => f.startsWith(app))) {
        entry.stale = true;
        if (!entry.loading) this.reload(root, entry);
      }
    }
  }

  private reload(taskRoot: string, entry: Entry): void {
    entry.stale = false;
    const hadOne = entry.current !== undefined;
    // The key is taken before the load: a change during the load shows at the next check.
    entry.loading = inputsKey(taskRoot).then(async (key) => {
      const ctx = await loadRequirementContext(taskFolder(taskRoot));
      entry.key = key;
      entry.checkedAt = Date.now();
      return ctx;
    });
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
        this.onError(`could not read the task at ${taskRoot}: ${errorMessage(err)}`);
      },
    );
  }
}
