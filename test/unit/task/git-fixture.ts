// Builds small real git repositories for tests, independent of the machine's git config.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

const BASE_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...BASE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export class TestRepo {
  private n = 0;
  constructor(readonly dir: string) {}

  static async create(dir: string): Promise<TestRepo> {
    await fs.mkdir(dir, { recursive: true });
    git(dir, ['init', '-q']);
    return new TestRepo(dir);
  }

  /** Writes files (null deletes), commits everything with a deterministic date, returns the sha. */
  async commit(message: string, files: Record<string, string | null>): Promise<string> {
    for (const [rel, content] of Object.entries(files)) {
      const p = path.join(this.dir, rel);
      if (content === null) await fs.rm(p, { recursive: true, force: true });
      else {
        await fs.mkdir(path.dirname(p), { recursive: true });
        await fs.writeFile(p, content);
      }
    }
    this.n++;
    const date = `2024-01-${String(this.n).padStart(2, '0')}T12:00:00Z`;
    git(this.dir, ['add', '-A']);
    git(this.dir, ['commit', '-q', '--allow-empty', '-m', message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    return git(this.dir, ['rev-parse', 'HEAD']);
  }
}
