// Git histories built by code for the curation tests and bench: commits on branches, merges,
// one day apart, written in one `git fast-import` (a 1,500-commit history in a second).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export type Files = Record<string, string | null>;

interface PlannedCommit {
  mark: number;
  branch: string;
  message: string;
  files: Files;
  from?: number;
  merge?: number;
  time: number;
}

const START = Date.UTC(2023, 0, 1) / 1000;

export class History {
  private readonly commits: PlannedCommit[] = [];
  /** The last mark of each branch. */
  private readonly heads = new Map<string, number>();

  /** A commit on `branch` (new branches start at `from`); its mark, which `write` turns into a sha. */
  commit(branch: string, files: Files, options: { message?: string; from?: string; mergeFrom?: string } = {}): number {
    const mark = this.commits.length + 1;
    const from = this.heads.get(branch) ?? (options.from !== undefined ? this.heads.get(options.from) : undefined);
    const merge = options.mergeFrom !== undefined ? this.heads.get(options.mergeFrom) : undefined;
    if (options.mergeFrom !== undefined && merge === undefined) throw new Error(`no branch ${options.mergeFrom}`);
    this.commits.push({ mark, branch, message: options.message ?? `commit ${mark}`, files, from, merge, time: START + mark * 86400 });
    this.heads.set(branch, mark);
    return mark;
  }

  /** Writes the history into a new repository at `dir` (main checked out); each mark's sha. */
  async write(dir: string): Promise<Map<number, string>> {
    await fs.mkdir(dir, { recursive: true });
    const git = (args: string[], input?: string): string =>
      execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], {
        cwd: dir,
        input,
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
        maxBuffer: 1 << 28,
      });
    git(['init', '-q']);
    const parts: string[] = [];
    const data = (s: string): string => `data ${Buffer.byteLength(s)}\n${s}\n`;
    for (const c of this.commits) {
      parts.push(`commit refs/heads/${c.branch}\nmark :${c.mark}\ncommitter Test <test@example.com> ${c.time} +0000\n${data(c.message)}`);
      if (c.from !== undefined) parts.push(`from :${c.from}\n`);
      if (c.merge !== undefined) parts.push(`merge :${c.merge}\n`);
      for (const [p, content] of Object.entries(c.files)) parts.push(content === null ? `D ${p}\n` : `M 100644 inline ${p}\n${data(content)}`);
      parts.push('\n');
    }
    const marks = path.join(dir, '.git', 'fixture-marks');
    git(['fast-import', '--quiet', `--export-marks=${marks}`], parts.join(''));
    git(['checkout', '-q', '-f', 'main']);
    const shas = new Map<number, string>();
    for (const line of (await fs.readFile(marks, 'utf8')).split('\n')) {
      const m = /^:(\d+) ([0-9a-f]+)$/.exec(line);
      if (m) shas.set(Number(m[1]), m[2]);
    }
    return shas;
  }
}

/** `n` distinct lines of Python, tagged so that two calls with other tags differ on every line. */
export function lines(n: number, tag: string): string {
  return Array.from({ length: n }, (_, i) => `v_${tag}_${i} = ${i}\n`).join('');
}
