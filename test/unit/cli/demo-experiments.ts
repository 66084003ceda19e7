// The leaderboard's real experiments, as a user makes them: `sweci run` over the demo batch
// dataset with the scripted agents (which replay the upstream commits) and the upstream
// developers' replay beside them (--human-history), and again with a Programmer that changes
// nothing. The two runs go at once: they share nothing but the dataset, which they only read.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { FIXTURE_AGENTS, writeScriptedSettings } from '../helpers/scripted-settings';
import { cli, type BatchFixture } from './batch-fixture';

export interface LeaderboardExperiments {
  /** Run `scripted` and, with --human-history, `human-history`. */
  scripted: string;
  /** Run `nothing`. */
  nothing: string;
}

/** node with these arguments, waited for without blocking (so two runs can go at once). */
function node(cwd: string, args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('close', (code) => resolve({ code, err }));
  });
}

/** The two experiments in `fixture.tmp` (exp-scripted, exp-nothing): `tasks` (default all), `iterations` each. */
export async function buildLeaderboardExperiments(
  fixture: BatchFixture,
  opts: { tasks?: readonly string[]; iterations: number },
): Promise<LeaderboardExperiments> {
  const scripted = path.join(fixture.tmp, 'exp-scripted');
  const nothing = path.join(fixture.tmp, 'exp-nothing');
  const common = [...(opts.tasks ? ['--tasks', opts.tasks.join(',')] : []), '--max-iterations', String(opts.iterations)];
  const config = await writeScriptedSettings(fixture.demo, fixture.tmp, { name: 'nothing.json', programmer: path.join(FIXTURE_AGENTS, 'no-output.py') });
  const nothingArgs = [cli, 'run', '--dataset', fixture.demo.datasetDir, '--experiment', nothing, '--run', 'nothing', '--config', config, '--runtime', 'local'];
  const [a, b] = await Promise.all([
    node(fixture.tmp, fixture.runArgs(scripted, ...common, '--human-history', '--history-commits', String(opts.iterations))),
    node(fixture.tmp, [...nothingArgs, ...common]),
  ]);
  if (a.code !== 0) throw new Error(`sweci run (scripted) exited ${a.code}: ${a.err}`);
  if (b.code !== 0) throw new Error(`sweci run (nothing) exited ${b.code}: ${b.err}`);
  return { scripted, nothing };
}
