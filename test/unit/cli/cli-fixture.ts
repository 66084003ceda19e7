// What cli.test.ts and cli-docker.test.ts share: the CLI run as a user runs it, with a cache
// folder of the test's own, and a small git repository whose target fixes one test.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { TestRepo } from '../task/git-fixture';

export const cli = path.resolve(__dirname, '../../../src/cli/main.js');

/** `sweci …` with XDG_CACHE_HOME in `tmp` (the oracles go there). */
export function sweciWithCache(tmp: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache') } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A base whose add() subtracts and a target that fixes it: a gap of 1. */
export async function libRepo(dir: string): Promise<TestRepo> {
  const repo = await TestRepo.create(dir);
  await repo.commit('base', {
    'src/lib/__init__.py': '',
    'src/lib/core.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_core.py': 'from lib.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  });
  await repo.commit('target', { 'src/lib/core.py': 'def add(a, b):\n    return a + b\n' });
  return repo;
}
