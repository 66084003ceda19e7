// The human developers' path from base to target: the target's first-parent chain back to the
// base, read from the oracle's bare upstream repository (never from the agent's workspace).
import { UserError } from '../util/errors';
import { gitAt } from '../util/git';
import { UPSTREAM_BASE_REF, UPSTREAM_TARGET_REF } from '../workspace/layout';

export interface UpstreamCommit {
  sha: string;
  subject: string;
  author: string;
  /** Committer date, ISO 8601. */
  date: string;
}

/** Base first, target last: the base, then every first-parent commit of base..target, oldest first. */
export async function listUpstreamCommits(upstreamDir: string, signal?: AbortSignal): Promise<UpstreamCommit[]> {
  const git = gitAt(upstreamDir, { signal });
  const resolve = async (ref: string): Promise<string> => {
    try {
      return (await git.raw(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim();
    } catch {
      throw new UserError(`The oracle's upstream repository ${upstreamDir} has no ${ref}. Check the task out again to rebuild its oracle.`);
    }
  };
  const base = await resolve(UPSTREAM_BASE_REF);
  const target = await resolve(UPSTREAM_TARGET_REF);
  // %x1f / %x1e separate fields and records: subjects may hold any other character.
  const format = '--format=%H%x1f%s%x1f%an%x1f%cI%x1e';
  const parse = (out: string): UpstreamCommit[] =>
    out
      .split('\x1e')
      .map((r) => r.replace(/^\n/, ''))
      .filter((r) => r.length > 0)
      .map((r) => {
        const [sha, subject, author, date] = r.split('\x1f');
        return { sha, subject, author, date };
      });
  const [baseCommit] = parse(await git.raw(['show', '-s', format, base]));
  const after = parse(await git.raw(['rev-list', '--first-parent', '--reverse', format, `${base}..${target}`]).then(stripCommitLines));
  if (after.length === 0 || after[after.length - 1].sha !== target) {
    throw new UserError(
      `The target ${target.slice(0, 12)} does not descend from the base ${base.slice(0, 12)} in ${upstreamDir}: there is no history to replay.`,
    );
  }
  return [baseCommit, ...after];
}

/** `git rev-list --format` prints a "commit <sha>" line before each record. */
function stripCommitLines(out: string): string {
  return out.replace(/^commit [0-9a-f]+\n/gm, '');
}

/**
 * Positions (0 = base) of the commits to replay: all of them, or `count` evenly spaced after
 * the base, always ending at the target; the base (position 0) is always included.
 */
export function selectPositions(total: number, count?: number): number[] {
  const last = total - 1;
  if (last <= 0) return [0];
  if (count === undefined || count >= last) return Array.from({ length: total }, (_, i) => i);
  const n = Math.max(1, Math.floor(count));
  const picked = new Set<number>([0]);
  for (let i = 1; i <= n; i++) picked.add(Math.round((i * last) / n));
  return [...picked].sort((a, b) => a - b);
}
