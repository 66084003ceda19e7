// What the two `sweci run` test files share: the demo dataset's four tasks in a temp folder,
// settings for the scripted agents, and small helpers to run the CLI and read its lines.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DemoDataset } from '../../../scripts/demo-dataset';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { writeScriptedSettings } from '../helpers/scripted-settings';
import { processTag } from '../runtime/process-helpers';

export const cli = path.resolve(__dirname, '../../../src/cli/main.js');
export const RUN = 'scripted';

export interface Line {
  iteration: number;
  gap: number;
  passed: number;
  pytest: Record<string, number>;
  [key: string]: unknown;
}

/** A line without what differs between two runs of the same agents: clocks, durations and shas. */
export function comparable(line: Line): unknown {
  const { started_at: _s, finished_at: _f, commit: _c, pytest_time: _p, ...rest } = line;
  for (const role of ['architect', 'programmer']) {
    const step = rest[role] as Record<string, unknown> | undefined;
    if (step) rest[role] = { ...step, execution_time: undefined };
  }
  return rest;
}

export interface BatchFixture {
  tmp: string;
  demo: DemoDataset;
  /** The scripted agents' settings file, for --config. */
  config: string;
  /** The word on the scripted agents' command lines: what finds this fixture's agents, and no one else's. */
  tag: string;
  sweci: (...args: string[]) => { code: number | null; out: string; err: string };
  lines: (experiment: string, task: string) => Promise<Line[]>;
  /** node's arguments for `sweci run` of the whole dataset into `experiment` with the scripted agents. */
  runArgs: (experiment: string, ...more: string[]) => string[];
  /** `sweci run` with runArgs's arguments, waited for. */
  runSweci: (experiment: string, ...more: string[]) => { code: number | null; out: string; err: string };
  dispose: () => Promise<void>;
}

/** `imageArchive`: each task's image.tar.gz (a `docker save` of the demo image), for the container runtimes. */
export async function batchFixture(opts: { imageArchive?: string } = {}): Promise<BatchFixture> {
  const tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-batch-')));
  const demo = await demoDatasetFixture(path.join(tmp, 'dataset'), { batch: true, ...(opts.imageArchive ? { imageArchive: opts.imageArchive } : {}) });
  const tag = processTag('batch');
  const config = await writeScriptedSettings(demo, tmp, { tag });
  const sweci: BatchFixture['sweci'] = (...args) => {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: tmp });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const runArgs: BatchFixture['runArgs'] = (experiment, ...more) => [
    cli,
    'run',
    '--dataset',
    demo.datasetDir,
    '--experiment',
    experiment,
    '--run',
    RUN,
    '--config',
    config,
    '--runtime',
    'local',
    ...more,
  ];
  return {
    tmp,
    demo,
    config,
    tag,
    sweci,
    lines: async (experiment, task) => {
      const text = await fs.readFile(path.join(experiment, task, '.sweci', 'runs', RUN, 'iteration.jsonl'), 'utf8');
      return text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
    },
    runArgs,
    runSweci: (experiment, ...more) => sweci(...runArgs(experiment, ...more).slice(1)),
    dispose: () => fs.rm(tmp, { recursive: true, force: true }),
  };
}
