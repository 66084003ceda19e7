// Every command that takes an experiment folder checks it the same way: a folder that is not one
// (no sweci-experiment.json, a file, or nothing there) is refused with the same message and exit
// code 1, printing nothing on standard output and writing nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

const cli = path.resolve(__dirname, '../../../src/cli/main.js');
let tmp: string;
let plain: string;
let experiment: string;

function sweci(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'cache') } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const NOT_ONE = (dir: string) => `error: ${dir} is not an experiment: it has no sweci-experiment.json (the file "sweci run --experiment" writes).\n`;

/** `args` refused with exactly `message`, exit 1 and nothing on standard output. */
function refusedWith(message: string, ...args: string[]): void {
  const r = sweci(...args);
  assert.equal(r.code, 1, `${args.join(' ')}: exit ${r.code}\n${r.out}${r.err}`);
  assert.equal(r.out, '', args.join(' '));
  assert.equal(r.err, message, args.join(' '));
}

describe('a folder that is not an experiment', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-not-exp-')));
    // A folder with something in it, as a user might point at by mistake (a task's code, say).
    plain = path.join(tmp, 'code');
    await fs.mkdir(path.join(plain, 'tests'), { recursive: true });
    await fs.writeFile(path.join(plain, 'tests', 'test_a.py'), 'def test_a():\n    pass\n');
    // An experiment that has not run a task yet: the other side of a comparison.
    experiment = path.join(tmp, 'exp');
    await fs.mkdir(experiment);
    const record = {
      schema: 1,
      created: new Date(0).toISOString(),
      dataset: tmp,
      split: 'default',
      run: 'r',
      agents: { architect: 'custom', programmer: 'custom' },
      maxIterations: 2,
    };
    await fs.writeFile(path.join(experiment, 'sweci-experiment.json'), JSON.stringify(record));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('summarize refuses it', () => refusedWith(NOT_ONE(plain), 'summarize', plain));

  test('report refuses it and writes no index', async () => {
    const out = path.join(tmp, 'report-out');
    refusedWith(NOT_ONE(plain), 'report', plain, '-o', out);
    await assert.rejects(fs.stat(out), 'nothing written');
  });

  test('report --leaderboard refuses it', () => refusedWith(NOT_ONE(plain), 'report', '--leaderboard', plain, '-o', path.join(tmp, 'lb-out')));

  test('compare refuses it, as A or as B', () => {
    refusedWith(NOT_ONE(plain), 'compare', plain, experiment);
    refusedWith(NOT_ONE(plain), 'compare', experiment, plain);
  });

  test('leaderboard refuses it', () => refusedWith(NOT_ONE(plain), 'leaderboard', plain));

  test('slurm status refuses it', () => refusedWith(NOT_ONE(plain), 'slurm', 'status', plain));

  test("report without -o writes into the experiment's own .sweci/reports/", async () => {
    const r = sweci('report', experiment);
    assert.equal(r.code, 0, r.err);
    const reports = path.join(experiment, '.sweci', 'reports');
    const [folder] = await fs.readdir(reports);
    assert.match(folder, /^export-\d{4}-/);
    assert.match(r.out, new RegExp(`^wrote ${path.join(reports, folder, 'index.html').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  test('a missing folder and a file get the same words from every command', async () => {
    const missing = path.join(tmp, 'nowhere');
    const file = path.join(tmp, 'a-file');
    await fs.writeFile(file, 'x');
    const gone = `error: ${missing} does not exist: give an experiment folder (one "sweci run --experiment" wrote).\n`;
    const isFile = `error: ${file} is not an experiment: it is a file, not a folder.\n`;
    for (const verb of [['summarize'], ['compare', experiment], ['leaderboard'], ['slurm', 'status']]) {
      refusedWith(gone, ...verb, missing);
      refusedWith(isFile, ...verb, file);
    }
    refusedWith(gone, 'report', missing, '-o', path.join(tmp, 'out-missing'));
    refusedWith(isFile, 'report', file, '-o', path.join(tmp, 'out-file'));
  });
});
