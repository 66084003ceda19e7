// No secret in an experiment's folder (issue 43): `sweci run` with a key given by variable
// (--api-key-env) and the same key in a model name; then every
// file of the experiment folder is read (records, status files, logs, reports, archives) and
// none holds it, nor does `sweci summarize` or the exported report. Run as root with the default
// settings; the scripted agents of the other CLI tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { batchFixture, cli, type BatchFixture } from './batch-fixture';

const SECRET = `SK-LIVE-${process.pid}-0123456789abcdef`;

let fixture: BatchFixture;

/** Every regular file below `dir` that holds `needle`, by relative path. */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const rel of await fs.readdir(dir, { recursive: true })) {
    const p = path.join(dir, rel);
    const st = await fs.lstat(p);
    if (st.isFile() && (await fs.readFile(p)).includes(needle)) found.push(rel);
    // A folder named after it counts too.
    if (rel.includes(needle)) found.push(rel);
  }
  return [...new Set(found)];
}

describe('no secret in the experiment folder', () => {
  before(async () => {
    fixture = await batchFixture();
  });
  after(() => fixture.dispose());

  test('a key given by variable and as a model name is in no file', async () => {
    const experiment = path.join(fixture.tmp, 'exp-secrets');
    const args = fixture.runArgs(
      experiment,
      '--tasks',
      fixture.demo.tasks[1].taskId,
      '--max-iterations',
      '1',
      '--api-key-env',
      'ACME_SECRET_KEY',
      '--programmer-model',
      `acme/${SECRET}`,
    );
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: fixture.tmp, env: { ...process.env, ACME_SECRET_KEY: SECRET } });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), 'nor the terminal');
    const summary = spawnSync(process.execPath, [cli, 'summarize', experiment], { encoding: 'utf8', cwd: fixture.tmp });
    assert.equal(summary.status, 0, summary.stderr);
    assert.ok(!summary.stdout.includes(SECRET), summary.stdout);
    const report = path.join(fixture.tmp, 'secrets-report');
    const exported = spawnSync(process.execPath, [cli, 'report', experiment, '--out', report], { encoding: 'utf8', cwd: fixture.tmp });
    assert.equal(exported.status, 0, exported.stderr);
    assert.deepEqual(await filesHolding(report, SECRET), [], 'the exported report');
    const experimentJson = await fs.readFile(path.join(experiment, 'sweci-experiment.json'), 'utf8');
    assert.match(experimentJson, /"programmer": "custom \(acme\/\*\*\*\)"/);
    assert.deepEqual(await filesHolding(experiment, SECRET), []);
  });
});
