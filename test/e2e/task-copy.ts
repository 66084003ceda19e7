// Copies a prepared demo task (its folder, oracle and scripted agents' answers) under another
// name, as if it had been checked out and recorded there. The records name their folders by
// absolute path (task.json's oracle, pytest's tracebacks, the run's command lines, git remotes and
// reflogs), so the copy's text files have the source's folder replaced by the copy's. Binary
// files (git objects and index) name none; pytest's bytecode cache is left behind (it is named
// after the source's paths, and each pytest run fills it again from the machine's seed).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The folders of a prepared task named `base`: the task, its oracle and the scripted answers. */
export const TASK_SUFFIXES = ['', '.oracle', '.scripted'] as const;

/** Copies `${from}${suffix}` to `${to}${suffix}` for each suffix that exists, rewriting `from` to `to` in text files. */
export async function copyTaskAs(from: string, to: string): Promise<void> {
  for (const suffix of TASK_SUFFIXES) {
    const source = `${from}${suffix}`;
    if (!(await exists(source))) continue;
    await fs.cp(source, `${to}${suffix}`, { recursive: true, verbatimSymlinks: true, filter: (src) => !isBytecodeCache(src) });
    await rewriteTree(`${to}${suffix}`, from, to);
  }
}

function isBytecodeCache(p: string): boolean {
  return path.basename(p) === 'pycache' && path.basename(path.dirname(p)) === 'pytest-out';
}

async function rewriteTree(dir: string, from: string, to: string): Promise<void> {
  const needle = Buffer.from(from);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await rewriteTree(p, from, to);
    else if (entry.isFile()) {
      const bytes = await fs.readFile(p);
      // A NUL marks a binary file (git's objects, index and packs): left as it is.
      if (!bytes.includes(needle) || bytes.includes(0)) continue;
      await fs.writeFile(p, bytes.toString('utf8').split(from).join(to));
    }
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}
