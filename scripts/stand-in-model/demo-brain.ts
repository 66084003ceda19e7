// The demo's stand-in model: plays SWE-CI's two roles on the demo task as a model would, through
// the tools its agent offers (scripts/demo-agent: `bash` and `write`), one tool call per reply.
// It knows the task's upstream history (read here, in the demo's own process: the agents never
// see it), the way a model may have seen a project's code. The Architect reads the non-passed
// summary with a command and writes one requirement per test file; the Programmer lists the code
// folder's files with their hashes, and from the commit they match best writes the developers'
// next commit (its non-test files), one file per call. Each reply is read from the conversation
// (the tool results so far), so the brain keeps no state and a replay asks the same questions.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { toolResults, type Brain, type Conversation, type Reply, type ToolCall } from './conversation';
import { checkReply, pathIn, roleOf, roleTurn, sideReply } from './task-brain';
import { shellCall, writeCall } from './tool-kit';

export interface DemoHistory {
  /** The upstream repository (bare or not), read with git in this process. */
  gitDir: string;
  /** First-parent commits, the base first, the target last. */
  commits: readonly string[];
}

/** At most this many requirements, the test files with most failures first (as the scripted Architect). */
const MAX_REQUIREMENTS = 5;

/** Top-level folders the Programmer never touches, and folders it skips anywhere. */
const SKIP_TOP = new Set(['tests', 'test', '.git']);
const SKIP_ANY = new Set(['__pycache__', '.pytest_cache']);

const isCodePath = (rel: string): boolean => {
  const parts = rel.split('/');
  return !SKIP_TOP.has(parts[0]) && !parts.some((p) => SKIP_ANY.has(p));
};

/** The command the Programmer's model asks for first: every non-test file of the code folder with its SHA-256. */
const LIST_FILES =
  "find . -type f ! -path './tests/*' ! -path './test/*' ! -path './.git/*' ! -path '*/__pycache__/*' ! -path '*/.pytest_cache/*' -print0 | sort -z | xargs -0 -r sha256sum";

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** requirement.xml from summary.jsonl's lines ({test, description}): one requirement per test file. */
export function requirementsFor(summaryJsonl: string): string {
  const groups = new Map<string, { test: string; description: string }[]>();
  for (const line of summaryJsonl.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    let entry: { test?: unknown; description?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (typeof entry.test !== 'string') continue;
    const file = entry.test.split('::')[0];
    groups.set(file, [...(groups.get(file) ?? []), { test: entry.test, description: typeof entry.description === 'string' ? entry.description : '' }]);
  }
  const ordered = [...groups].sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b)).slice(0, MAX_REQUIREMENTS);
  const items = ordered.map(([file, tests], i) => {
    const names = tests.map((t) => t.test).join(', ');
    const reasons = tests
      .slice(0, 3)
      .map((t) => t.description)
      .filter(Boolean)
      .join(' ');
    return [
      `  <requirement id="${i + 1}">`,
      `    <location>${escapeXml(`the code exercised by ${file}`)}</location>`,
      `    <description>${escapeXml(`${tests.length} test${tests.length === 1 ? '' : 's'} do not pass: ${names}.${reasons ? ` ${reasons}` : ''}`)}</description>`,
      `    <contract>${escapeXml(`Behave as ${file} expects.`)}</contract>`,
      `    <acceptance>${escapeXml(`These tests pass: ${names}`)}</acceptance>`,
      `  </requirement>`,
    ].join('\n');
  });
  if (items.length === 0) {
    items.push(
      [
        '  <requirement id="1">',
        '    <location>none</location>',
        '    <description>Every target test already passes.</description>',
        '    <contract>Keep the behaviour unchanged.</contract>',
        '    <acceptance>All tests still pass.</acceptance>',
        '  </requirement>',
      ].join('\n'),
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<requirements>\n${items.join('\n')}\n</requirements>\n`;
}

/** One commit's non-test files: path → blob id. */
type Tree = Map<string, string>;

/** The upstream history as the model knows it: each commit's code files, their contents and hashes (read once, kept). */
class History {
  private readonly trees: Tree[];
  private readonly blobs = new Map<string, { text: string; sha256: string }>();

  constructor(private readonly history: DemoHistory) {
    this.trees = history.commits.map((sha) => this.tree(sha));
  }

  get length(): number {
    return this.trees.length;
  }

  private git(...args: string[]): string {
    return execFileSync('git', ['--git-dir', this.history.gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  }

  private tree(sha: string): Tree {
    const files: Tree = new Map();
    for (const entry of this.git('ls-tree', '-r', '-z', '--full-tree', sha).split('\0')) {
      const tab = entry.indexOf('\t');
      if (tab < 0) continue;
      const [, kind, blob] = entry.slice(0, tab).split(' ');
      const rel = entry.slice(tab + 1);
      if (kind === 'blob' && isCodePath(rel)) files.set(rel, blob);
    }
    return files;
  }

  blob(id: string): { text: string; sha256: string } {
    let b = this.blobs.get(id);
    if (!b) {
      const text = this.git('cat-file', 'blob', id);
      b = { text, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
      this.blobs.set(id, b);
    }
    return b;
  }

  /** The commit the listed files match best (ties to the later one: a commit that changed only tests changes nothing here). */
  bestMatch(current: ReadonlyMap<string, string>): number {
    let best = 0;
    let bestScore = -Infinity;
    this.trees.forEach((tree, i) => {
      let same = 0;
      let differ = 0;
      for (const [rel, id] of tree) {
        const have = current.get(rel);
        if (have === undefined) differ++;
        else if (have === this.blob(id).sha256) same++;
        else differ++;
      }
      for (const rel of current.keys()) if (!tree.has(rel)) differ++;
      if (same - differ >= bestScore) [best, bestScore] = [i, same - differ];
    });
    return best;
  }

  /** What turns the listed files into commit `index`'s: files to write (path → text) and files to delete. */
  changesTo(index: number, current: ReadonlyMap<string, string>): { write: [string, string][]; remove: string[] } {
    const tree = this.trees[index];
    const write: [string, string][] = [];
    for (const [rel, id] of [...tree].sort(([a], [b]) => a.localeCompare(b))) {
      const b = this.blob(id);
      if (current.get(rel) !== b.sha256) write.push([rel, b.text]);
    }
    const remove = [...current.keys()].filter((rel) => !tree.has(rel)).sort();
    return { write, remove };
  }
}

/** `sha256sum`'s lines (`<hash>  ./<path>`) as path → hash. */
function listedFiles(output: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of output.matchAll(/^([0-9a-f]{64}) [ *]\.\/(.+)$/gm)) if (isCodePath(m[2])) files.set(m[2], m[1]);
  return files;
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function demoBrain(history: DemoHistory): Brain {
  const known = new History(history);
  return (c: Conversation): Reply => {
    const role = roleOf(c);
    if (!role || c.tools.length === 0) return sideReply(role);
    const results = toolResults(c);
    const turn = roleTurn(c, role);
    const { prompt, step, say, call } = turn;
    if (role === 'check') return checkReply(c, turn);
    if (role === 'architect') {
      const summary = pathIn(prompt, 'summary.jsonl');
      const requirement = pathIn(prompt, 'requirement.xml');
      if (!summary || !requirement) return say('The prompt names no summary.jsonl or requirement.xml.');
      if (step === 0) return call(shellCall(c, `cat ${quote(summary)}`));
      if (step === 1) return call(writeCall(c, requirement, requirementsFor(results[0].output)));
      return say('requirement.xml is written: one requirement per test file that does not pass.');
    }
    const code = pathIn(prompt, '/code');
    if (!code) return say('The prompt names no code folder.');
    if (step === 0) return call(shellCall(c, LIST_FILES, code));
    const current = listedFiles(results[0].output);
    const at = known.bestMatch(current);
    if (at + 1 >= known.length) return say('The code already matches the last version I know: nothing to change.');
    const { write, remove } = known.changesTo(at + 1, current);
    const actions: (() => ToolCall | undefined)[] = [
      ...write.map(
        ([rel, text]) =>
          () =>
            writeCall(c, `${code}/${rel}`, text),
      ),
      ...(remove.length > 0 ? [() => shellCall(c, `rm -f -- ${remove.map(quote).join(' ')}`, code)] : []),
    ];
    if (step - 1 < actions.length) return call(actions[step - 1]());
    return say(
      `Done: ${write.length} file${write.length === 1 ? '' : 's'} written${remove.length ? `, ${remove.length} removed` : ''}, as in version ${at + 2} of ${known.length}.`,
    );
  };
}
