// No secret in what sweci writes (issue 43). A secret is given three ways: by key variable
// (--api-key-env, and the same value as the Architect's model name), on an agent's command line
// (`--key sk-live-…`) and as a model name that is no variable's value (`sk-proj-…`). Then
// `sweci run` (local route, default settings, no --run: the run's name comes from the agents),
// a run whose agent cannot start (its reason lands in the status file), `sweci slurm` (writes
// its script into the experiment folder without submitting) and `sweci k8s` (writes the Job's
// manifest and README) are run, and no file of the experiment folders, of the manifest folder or
// of the exported report, and no terminal output or summary, holds any of the three.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { batchFixture, cli, type BatchFixture } from './batch-fixture';

const SECRETS = {
  // No key's shape: only its being a key variable's value makes it a secret.
  variable: `acme-live-${process.pid}-0123456789abcdef`,
  command: `sk-live-${process.pid}-fedcba9876543210`,
  model: `sk-proj-${process.pid}Qw3rTy9uIoPaSdFgHjKl`,
};
const ENV = { ...process.env, ACME_SECRET_KEY: SECRETS.variable };

let fixture: BatchFixture;
/** The scripted agents' settings without the Architect's command, which the flag gives. */
let config: string;
let architectCommand: string;

/** Every regular file below `dir` that holds a secret (or is named after one), by relative path. */
async function filesHoldingSecrets(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const rel of await fs.readdir(dir, { recursive: true })) {
    const p = path.join(dir, rel);
    const st = await fs.lstat(p);
    const text = st.isFile() ? await fs.readFile(p) : undefined;
    for (const [how, secret] of Object.entries(SECRETS)) {
      if (rel.includes(secret) || text?.includes(secret)) found.push(`${rel} (${how})`);
    }
  }
  return [...new Set(found)];
}

function textHoldsSecret(text: string): string | undefined {
  return Object.entries(SECRETS).find(([, s]) => text.includes(s))?.[0];
}

/** The three secrets as flags: by variable (and as the Architect's model name), on a command line, as a model name. */
function secretFlags(architect = `${architectCommand} --key ${SECRETS.command}`): string[] {
  return [
    '--api-key-env',
    'ACME_SECRET_KEY',
    '--architect-model',
    SECRETS.variable,
    '--programmer-model',
    `acme/${SECRETS.model}`,
    '--architect-command',
    architect,
  ];
}

function sweci(args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: fixture.tmp, env: ENV });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('no secret in what sweci writes', () => {
  before(async () => {
    fixture = await batchFixture();
    const settings = JSON.parse(await fs.readFile(fixture.config, 'utf8')) as Record<string, unknown>;
    architectCommand = String(settings['sweci.architect.customCommand']);
    delete settings['sweci.architect.customCommand'];
    config = path.join(fixture.tmp, 'settings-no-architect-command.json');
    await fs.writeFile(config, JSON.stringify(settings));
  });
  after(() => fixture.dispose());

  test('sweci run: no file of the experiment, no output, no summary and no report holds a secret', async () => {
    const experiment = path.join(fixture.tmp, 'exp-secrets');
    const common = ['--dataset', fixture.demo.datasetDir, '--experiment', experiment, '--config', config, '--runtime', 'local', '--max-iterations', '1'];
    const r = sweci(['run', ...common, '--tasks', fixture.demo.tasks[1].taskId, ...secretFlags()]);
    assert.equal(r.code, 0, r.out);
    assert.equal(textHoldsSecret(r.out), undefined, `the terminal: ${r.out}`);
    const record = JSON.parse(await fs.readFile(path.join(experiment, 'sweci-experiment.json'), 'utf8')) as { agents: Record<string, string>; run: string };
    assert.equal(record.agents.architect, 'custom (***)');
    assert.equal(record.agents.programmer, 'custom (acme/***)');

    // A command written as for a shell (a variable set before the program): no shell runs it, so
    // the agent cannot start, the task fails, and the status file quotes the program it sought.
    const failing = sweci(['run', ...common, '--tasks', fixture.demo.tasks[2].taskId, ...secretFlags(`ACME_TOKEN=${SECRETS.command} no-such-agent`)]);
    assert.notEqual(failing.code, 0, failing.out);
    assert.equal(textHoldsSecret(failing.out), undefined, `the terminal: ${failing.out}`);
    const status = await fs.readFile(path.join(experiment, '.sweci-batch', `${fixture.demo.tasks[2].taskId}.json`), 'utf8');
    assert.match(status, /"state": "failed"/);
    assert.match(status, /ACME_TOKEN=\*\*\*/, status);

    const summary = sweci(['summarize', experiment]);
    assert.equal(summary.code, 0, summary.out);
    assert.equal(textHoldsSecret(summary.out), undefined, summary.out);
    const report = path.join(fixture.tmp, 'secrets-report');
    const exported = sweci(['report', experiment, '--out', report]);
    assert.equal(exported.code, 0, exported.out);
    assert.deepEqual(await filesHoldingSecrets(report), [], 'the exported report');
    assert.deepEqual(await filesHoldingSecrets(experiment), [], 'the experiment folder');
  });

  // Each way alone: a refusal for one secret must not hide another's leak.
  for (const way of ['variable', 'command', 'model'] as const) {
    test(`sweci slurm and sweci k8s write no secret given by ${way}, and their refusals name none`, async () => {
      const flags = {
        variable: ['--api-key-env', 'ACME_SECRET_KEY', '--architect-model', SECRETS.variable],
        command: ['--architect-command', `${architectCommand} --key ${SECRETS.command}`],
        model: ['--programmer-model', `acme/${SECRETS.model}`],
      }[way];
      const experiment = path.join(fixture.tmp, `exp-slurm-${way}`);
      const slurm = sweci([
        'slurm',
        '--dataset',
        fixture.demo.datasetDir,
        '--experiment',
        experiment,
        '--config',
        way === 'command' ? config : fixture.config,
        '--runtime',
        'local',
        '--sweci',
        '/shared/sweci',
        ...flags,
      ]);
      assert.equal(textHoldsSecret(slurm.out), undefined, `the terminal: ${slurm.out}`);
      // Either a script without it, or a refusal that says where a key belongs.
      if (slurm.code !== 0) assert.match(slurm.out, /holds a secret/, slurm.out);
      await fs.mkdir(experiment, { recursive: true });
      assert.deepEqual(await filesHoldingSecrets(experiment), [], 'the experiment folder and its Slurm script');

      const out = path.join(fixture.tmp, `k8s-${way}`);
      const k8s = sweci([
        'k8s',
        '--dataset',
        fixture.demo.datasetDir,
        '--experiment',
        'secrets',
        '--image',
        'sweci:test',
        '--claim',
        'results',
        '--out',
        out,
        '--',
        ...flags,
      ]);
      assert.equal(textHoldsSecret(k8s.out), undefined, `the terminal: ${k8s.out}`);
      if (k8s.code !== 0) assert.match(k8s.out, /holds a secret/, k8s.out);
      await fs.mkdir(out, { recursive: true });
      assert.deepEqual(await filesHoldingSecrets(out), [], 'the manifest and its README');
    });
  }
});
