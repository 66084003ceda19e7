// History read in bulk: the first-parent chain with each commit's changed paths in one `git log`,
// blobs through one `git cat-file --batch`, every pair's numstat through one `git diff-tree
// --stdin` fed as pairs are found. Never a checkout, never a process per commit.
import { spawnGit } from '../util/git';
import { AbortError } from '../util/errors';

export interface LoggedCommit {
  sha: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  /** Each path the commit changed against its first parent: its new blob, or null when deleted (submodules too: their commit). */
  changes: Map<string, string | null>;
}

/** Runs git to its end; its stdout. Rejects with git's stderr on a non-zero exit. */
function runGit(dir: string, args: readonly string[], input: string | undefined, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const child = spawnGit(dir, args);
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err = (err + s).slice(-4000)));
    const abort = (): void => void child.kill('SIGKILL');
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) return reject(new AbortError());
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(err.trim() || `git ${args[0]} exited with ${code}`));
    });
    child.stdin.on('error', () => undefined); // git exiting early shows as its exit code
    child.stdin.end(input ?? '');
  });
}

/** The first-parent chain ending at `ref`, oldest first, with each commit's changes against its first parent. */
export async function firstParentLog(dir: string, ref: string, signal?: AbortSignal): Promise<LoggedCommit[]> {
  const out = await runGit(
    dir,
    [
      'log',
      '--first-parent',
      '--reverse',
      '--root',
      '--diff-merges=first-parent',
      '--raw',
      '--no-abbrev',
      '--no-renames',
      '-z',
      '--format=%x01%H %ct',
      ref,
      '--',
    ],
    undefined,
    signal,
  );
  const commits: LoggedCommit[] = [];
  for (const record of out.toString('utf8').split('\x01')) {
    if (record === '') continue;
    const headerEnd = record.indexOf('\0');
    const header = headerEnd < 0 ? record : record.slice(0, headerEnd);
    const [sha, time] = header.trim().split(' ');
    const changes = new Map<string, string | null>();
    const fields =
      headerEnd < 0
        ? []
        : record
            .slice(headerEnd + 1)
            .replace(/^\n/, '')
            .split('\0');
    for (let i = 0; i + 1 < fields.length; i += 2) {
      // `:100644 100644 <old> <new> M` then the path.
      const meta = fields[i].split(' ');
      const status = meta[4] ?? '';
      changes.set(fields[i + 1], status.startsWith('D') ? null : (meta[3] ?? ''));
    }
    commits.push({ sha, time: Number(time), changes });
  }
  return commits;
}

/** One `git cat-file --batch` for the whole mining pass: blobs by id, each read once. */
export class BlobReader {
  private readonly child;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Array<{ resolve: (b: Buffer | undefined) => void; reject: (e: Error) => void }> = [];
  private readonly cache = new Map<string, Promise<Buffer | undefined>>();
  private failure: Error | undefined;

  constructor(dir: string) {
    this.child = spawnGit(dir, ['cat-file', '--batch']);
    this.child.stdout.on('data', (b: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, b]) : b;
      this.drain();
    });
    let err = '';
    this.child.stderr.setEncoding('utf8').on('data', (s: string) => (err = (err + s).slice(-2000)));
    this.child.stdin.on('error', () => undefined);
    const fail = (e: Error): void => {
      this.failure = e;
      for (const w of this.waiting.splice(0)) w.reject(e);
    };
    this.child.on('error', fail);
    this.child.on('close', (code) => fail(new Error(err.trim() || `git cat-file ended (${code})`)));
  }

  /** A blob's bytes; undefined when the store does not have it. */
  read(id: string): Promise<Buffer | undefined> {
    let p = this.cache.get(id);
    if (!p) {
      p = new Promise<Buffer | undefined>((resolve, reject) => {
        if (this.failure) return reject(this.failure);
        this.waiting.push({ resolve, reject });
        this.child.stdin.write(`${id}\n`);
      });
      this.cache.set(id, p);
    }
    return p;
  }

  close(): void {
    this.child.stdin.end();
  }

  private drain(): void {
    for (;;) {
      const nl = this.buffer.indexOf(0x0a);
      if (nl < 0 || this.waiting.length === 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.waiting.shift()?.resolve(undefined);
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (this.buffer.length < nl + 1 + size + 1) return;
      const body = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size));
      this.buffer = this.buffer.subarray(nl + 1 + size + 1);
      this.waiting.shift()?.resolve(body);
    }
  }
}

export interface NumstatEntry {
  path: string;
  /** Added plus deleted lines; 0 for a binary file. */
  lines: number;
}

/**
 * `git diff --numstat base oracle` for every pair, through one `git diff-tree --stdin` started at
 * once: pairs go in as the walk finds them, so git diffs while the walk goes on and its start-up
 * is off the path; `result` (after the last pair) gives them keyed by oracle.
 */
export class NumstatReader {
  private readonly child;
  private readonly out: Buffer[] = [];
  private readonly done: Promise<void>;

  constructor(dir: string, signal?: AbortSignal) {
    this.child = spawnGit(dir, ['diff-tree', '--stdin', '-r', '--numstat', '--no-renames', '-z']);
    const child = this.child;
    let err = '';
    child.stdout.on('data', (b: Buffer) => this.out.push(b));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err = (err + s).slice(-4000)));
    child.stdin.on('error', () => undefined); // git exiting early shows as its exit code
    const abort = (): void => void child.kill('SIGKILL');
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    this.done = new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => {
        signal?.removeEventListener('abort', abort);
        if (signal?.aborted) return reject(new AbortError());
        if (code === 0) resolve();
        else reject(new Error(err.trim() || `git diff-tree exited with ${code}`));
      });
    });
    this.done.catch(() => undefined); // awaited in result(); a mining pass that failed earlier never asks
  }

  /** Queues one pair: base → oracle. */
  add(pair: { base: string; oracle: string }): void {
    // `<oracle> <base>` diffs the oracle against base as if base were its parent: base → oracle.
    this.child.stdin.write(`${pair.oracle} ${pair.base}\n`);
  }

  /** Every queued pair's numstat, keyed by oracle, once git has diffed them all. */
  async result(): Promise<Map<string, NumstatEntry[]>> {
    this.child.stdin.end();
    await this.done;
    return parseNumstats(Buffer.concat(this.out).toString('utf8'));
  }

  /** Stops git when the pass ends early (result() not called). */
  close(): void {
    if (!this.child.stdin.writableEnded) this.child.stdin.end();
  }
}

function parseNumstats(out: string): Map<string, NumstatEntry[]> {
  const result = new Map<string, NumstatEntry[]>();
  let current: NumstatEntry[] | undefined;
  for (const field of out.split('\0')) {
    if (field === '') continue;
    if (/^[0-9a-f]{40,64}$/.test(field.trim())) {
      current = [];
      result.set(field.trim(), current);
      continue;
    }
    const m = /^\n?(\d+|-)\t(\d+|-)\t(.*)$/s.exec(field);
    if (!m || !current) continue;
    current.push({ path: m[3], lines: (m[1] === '-' ? 0 : Number(m[1])) + (m[2] === '-' ? 0 : Number(m[2])) });
  }
  return result;
}
