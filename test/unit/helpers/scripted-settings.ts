// A `sweci run --config` file with the scripted stand-in agents (test/fixtures/agents) for a
// demo dataset: the Architect reads the non-passed summary, the Programmer replays the next
// upstream commit from its own bare copy of the history (agents cannot read the oracle).
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { repoRoot } from './repo-root';

export const FIXTURE_AGENTS = path.join(repoRoot, 'test', 'fixtures', 'agents');

/**
 * Writes `<dir>/<name>` with the scripted agents; `programmer` replaces the Programmer's script (then
 * without the answers); `tag` (a test's process tag) is an extra word on both commands.
 */
export async function writeScriptedSettings(demo: DemoDataset, dir: string, opts: { name?: string; programmer?: string; tag?: string } = {}): Promise<string> {
  const scriptCommand = (script: string) => ['python3', script, ...(opts.tag ? [opts.tag] : [])].map((w, i) => (i === 0 ? w : JSON.stringify(w))).join(' ');
  const settings: Record<string, unknown> = {
    'sweci.architect.agent': 'custom',
    'sweci.architect.customCommand': scriptCommand(path.join(FIXTURE_AGENTS, 'architect.py')),
    'sweci.programmer.agent': 'custom',
  };
  if (opts.programmer) {
    settings['sweci.programmer.customCommand'] = scriptCommand(opts.programmer);
  } else {
    const unpacked = path.join(dir, 'unpacked');
    const unzip = spawnSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      path.join(demo.datasetDir, 'data', demo.taskId, 'code.zip'),
      unpacked,
    ]);
    // In a folder of its own, which the sandbox shows the scripted agents (as a user would show a
    // custom agent its files): nothing else of `dir` is theirs to read.
    const answers = path.join(dir, 'scripted', 'answers.git');
    const clone = spawnSync('git', ['clone', '--bare', '--quiet', path.join(unpacked, 'tinyinventory'), answers]);
    if (unzip.status !== 0 || clone.status !== 0)
      throw new Error(`could not copy the demo's history for the scripted Programmer: ${String(unzip.stderr)}${String(clone.stderr)}`);
    settings['sweci.programmer.customCommand'] = scriptCommand(path.join(FIXTURE_AGENTS, 'programmer.py'));
    settings['sweci.programmer.env'] = { SWECI_SCRIPTED_UPSTREAM: answers, SWECI_SCRIPTED_COMMITS: demo.commits.join(',') };
    settings['sweci.sandboxReadablePaths'] = [FIXTURE_AGENTS, path.dirname(answers)];
  }
  settings['sweci.sandboxReadablePaths'] ??= [FIXTURE_AGENTS, ...(opts.programmer ? [opts.programmer] : [])];
  const file = path.join(dir, opts.name ?? 'settings.json');
  await fs.writeFile(file, JSON.stringify(settings));
  return file;
}
