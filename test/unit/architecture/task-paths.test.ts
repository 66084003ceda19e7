// Every path in a task folder comes from TaskFolder (core/workspace/task-folder.ts, over
// layout.ts): no other module joins a name of the layout itself, so the layout can change in one
// place. The names are read from the layout, not listed here: a path of a task folder relative to
// its root, each of its segments, and the run folder's own names. A module is flagged when it
// writes one of those names as a path: a distinctive segment as an argument of path.join /
// path.resolve / under, or a layout path with its `/` in a string that is not prose (no space)
// and not a container's path (from `/`). Messages may name app/code for a person to read.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { taskFolder, taskRelative, type TaskFolder } from '../../../src/core/workspace/task-folder';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

/** The layout's own modules, and the few that may name a layout path, each with why. */
const ALLOWED: Record<string, string> = {
  'src/core/workspace/layout.ts': 'the layout',
  'src/core/workspace/task-folder.ts': 'the layout',
  'src/core/util/trusted-program.ts': "sits below the workspace layer; it only asks whether a folder holds a task's hidden state",
  'src/core/agents/prompts.ts': 'the folders as an agent sees them inside its container (/app/…), not on this machine',
  'src/core/agents/check/agent-check.ts': "Check Agents' scratch folder is not a task folder; it mimics app/ for the agent",
  'src/core/gap/write-non-passed.ts': "the non-passed folder's own format (summary.jsonl in it), written into any folder, the task's and an archive's",
  'src/core/loop/run-store.ts': "an iteration archive's file names (ARCHIVE), which are not the task's layout",
};

/** A task folder's fields, own or getters up its prototype chain (its paths are made when asked for). */
function fieldNames(folder: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = folder; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(o))) {
      if (key !== 'constructor' && (d.get || ('value' in d && typeof d.value !== 'function'))) names.add(key);
    }
  }
  return [...names];
}

/** Every path the layout gives, relative to the task folder, with `/`. */
function layoutPaths(): string[] {
  const sample = taskFolder(path.resolve(path.sep, 'task'));
  const picks: ((t: TaskFolder) => string)[] = [];
  const fields = (t: TaskFolder) => t as unknown as Record<string, unknown>;
  for (const key of fieldNames(sample)) {
    const value = fields(sample)[key];
    if (typeof value === 'string' && key !== 'root') picks.push((t) => fields(t)[key] as string);
    else if (value !== null && typeof value === 'object') {
      for (const sub of Object.keys(value)) picks.push((t) => (fields(t)[key] as Record<string, string>)[sub]);
    }
  }
  for (const key of ['dir', 'runFile', 'iterationsFile', 'pendingDir', 'lockFile'] as const) picks.push((t) => t.run('RUN')[key]);
  return picks.map(taskRelative);
}

/** The string literals in `code` (quoted or a template's text). */
function literalsOf(code: string): string[] {
  return [...code.matchAll(/'([^'\\]*)'|`([^`\\]*)`/g)].map((m) => m[1] ?? m[2]);
}

/** What each path.join / path.resolve / under call on this line is given. */
function joinArguments(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:path\.(?:posix\.)?(?:join|resolve)|under)\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < code.length && depth > 0; i++) depth += code[i] === '(' ? 1 : code[i] === ')' ? -1 : 0;
    out.push(code.slice(start, i - 1));
  }
  return out;
}

test("no module but the layout joins a task folder's names itself", () => {
  const paths = layoutPaths();
  // Distinctive names only: a segment such as "code" or "lock" is an ordinary word elsewhere.
  const segments = new Set(paths.flatMap((p) => p.split('/')).filter((s) => s.includes('.') || s.includes('-')));
  segments.delete('RUN');
  const multi = paths.filter((p) => p.includes('/') && !p.includes('RUN'));
  const offenders: string[] = [];
  for (const file of sourceFiles(path.join(repoRoot, 'src'))) {
    const rel = path.relative(repoRoot, file).split(path.sep).join('/');
    if (ALLOWED[rel]) continue;
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        const code = line.replace(/\/\/.*$/, '');
        const hit =
          literalsOf(code).some((l) => !l.includes(' ') && !l.startsWith('/') && multi.some((p) => l.includes(p))) ||
          joinArguments(code).some((args) => {
            const given = literalsOf(args);
            return given.some((l) => l.split('/').some((seg) => segments.has(seg))) || multi.some((p) => given.join('/').includes(p));
          });
        if (hit) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(offenders, [], 'Take the path from TaskFolder (or taskRelative for a glob), or add the module to ALLOWED with the reason.');
});

test('the check knows the layout: it sees the task file, a run record and app/code among the paths', () => {
  const paths = layoutPaths();
  for (const p of ['.sweci/task.json', '.sweci/runs/RUN/iteration.jsonl', 'app/code', 'app/non-passed/summary.jsonl']) assert.ok(paths.includes(p), p);
});
