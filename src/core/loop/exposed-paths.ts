// Paths the user hands every sandboxed command, checked before a run starts: the absolute-path
// words of a custom agent's command line (the sandbox shows each one read-only, so the agent can
// open what it names) and sweci.sandboxReadablePaths. A path that is, or contains, what a task's
// commands must never see (task-confinement.ts: the dataset, an experiment folder, an oracle,
// another task) is refused: hiding it underneath would leave the user's own files beside it
// unreadable, and a folder above it would show every other task's code.zip (their future). A
// path inside one of them is allowed and stays hidden, as the task's own data always is.
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentRole, AgentSettings } from '../agents/agent-driver';
import { tokenizeCommand } from '../util/argv-tokenizer';
import { UserError } from '../util/errors';
import type { TaskRecord } from '../workspace/layout';
import { namedTaskSecrets, type TaskSecret } from '../runtime/task-confinement';
import type { TaskFolder } from '../workspace/task-folder';

export interface ExposedPathsInput {
  task: TaskFolder;
  record: TaskRecord;
  /** Who plays each role (only custom commands name paths of the user's choosing). */
  agents: Partial<Record<AgentRole, AgentSettings>>;
  /** sweci.sandboxReadablePaths, as the runtime shows them. */
  readable: readonly string[];
  /** sweci.sandboxWritablePaths: worse than readable (every step could change what they show). */
  writable?: readonly string[];
}

/** Throws a UserError naming the first path that would show a secret, and what to do instead. */
export function refuseExposedPaths(input: ExposedPathsInput): void {
  const secrets = namedTaskSecrets(input.task, input.record).map((s) => ({ ...s, real: real(s.path) }));
  for (const role of ['architect', 'programmer'] as const) {
    const agent = input.agents[role];
    if (agent?.kind !== 'custom') continue;
    // Only whole words are shown (local-runtime.ts sandboxCommand); "--data=/x" shows nothing.
    for (const word of tokenizeCommand(agent.command)) {
      if (!path.isAbsolute(word)) continue;
      const hit = exposes(word, secrets);
      if (hit) {
        throw new UserError(
          `The ${role}'s custom command (sweci.${role}.customCommand, --${role}-command) names ${word}, which ${hit.how} ${hit.secret.what} (${hit.secret.path}). The sandbox shows the agent every absolute path on its command line, so it could read that. Pass the file your agent needs instead, one that is outside those folders.`,
          { setting: `${role}.customCommand` },
        );
      }
    }
  }
  refuseList(input.readable, secrets, 'sandboxReadablePaths', '--sandbox-readable', 'read');
  refuseList(input.writable ?? [], secrets, 'sandboxWritablePaths', '--sandbox-writable', 'change');
}

function refuseList(list: readonly string[], secrets: ReadonlyArray<TaskSecret & { real: string }>, setting: string, flag: string, can: string): void {
  for (const p of list) {
    const hit = exposes(p, secrets);
    if (hit) {
      throw new UserError(
        `sweci.${setting} (${flag}) lists ${p}, which ${hit.how} ${hit.secret.what} (${hit.secret.path}). Every sandboxed command (agents and pytest) could ${can} it. List a narrower path: the folder or file your agent needs, outside those folders.`,
        { setting },
      );
    }
  }
}

function exposes(given: string, secrets: ReadonlyArray<TaskSecret & { real: string }>): { how: string; secret: TaskSecret } | undefined {
  // Both as written and through links: a link to the dataset shows the dataset.
  const candidates = [path.resolve(given), real(given)];
  const pairs = secrets.flatMap((secret) => candidates.flatMap((p) => [secret.path, secret.real].map((s) => ({ p, s, secret }))));
  // What the path is comes before what it contains: the message names the nearest thing.
  const same = pairs.find(({ p, s }) => p === s);
  if (same) return { how: 'is', secret: same.secret };
  const holds = pairs.find(({ p, s }) => isInside(s, p));
  return holds && { how: 'contains', secret: holds.secret };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function real(p: string): string {
  try {
    return realpathSync(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}
