// In the real extension host: SWE-CI: Export Inspect Log… on a real experiment (`sweci run` of
// two demo tasks with the scripted agents, as another process). The command runs the core
// exporter; the .eval it writes is read back with Python's zipfile (a reader not ours): one
// sample per task, with the scores `sweci summarize` prints. Then the bad inputs: an unknown run,
// and a run row of a task that is no experiment's; each says so and writes nothing.
// Not tested here: the Open in Inspect offer needs Inspect's own extension (ukaisi.inspect-ai),
// which the test host does not install.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExperimentSummary } from '../../src/core/batch/experiment-summary';
import type { InspectExportResult } from '../../src/core/export/inspect-log/export-inspect-logs';
import type { InspectLogHeader, InspectSample } from '../../src/core/export/inspect-log/inspect-log-types';
import { batchFixture, RUN, type BatchFixture } from '../unit/cli/batch-fixture';
import { api, until } from './helpers';

const TASKS = ['demo__tinyinventory-0002', 'demo__tinyinventory-0003'];

/** The zip's members as Python's zipfile reads them, each parsed as JSON. */
function readZip(file: string): Record<string, unknown> {
  const script = [
    'import json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'assert z.testzip() is None',
    'print(json.dumps({i.filename: json.loads(z.read(i.filename)) for i in z.infolist()}))',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** `sweci run` of the tasks, one iteration, with the scripted agents, into `experiment`, as another process. */
async function runScripted(fixture: BatchFixture, experiment: string): Promise<void> {
  const child = spawn(process.execPath, fixture.runArgs(experiment, '--tasks', TASKS.join(','), '--max-iterations', '1'), {
    cwd: fixture.tmp,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  assert.equal(code, 0, err);
}

suite('Export Inspect Log', function () {
  // A bound against a hang, not a time to meet: two tasks' loops run first.
  this.timeout(600_000);
  let fixture: BatchFixture;
  let experiment: string;

  suiteSetup(async () => {
    fixture = await batchFixture();
    experiment = path.join(fixture.tmp, 'exp-scripted');
    await runScripted(fixture, experiment);
  });

  suiteTeardown(async () => {
    await fixture?.dispose();
  });

  test('Export Inspect Log writes a run as an .eval Inspect reads: a sample per task, the scores sweci summarize prints', async () => {
    const out = path.join(fixture.tmp, 'inspect-logs');
    const result = await vscode.commands.executeCommand<InspectExportResult | undefined>('sweci.exportInspectLog', { experiment, run: RUN, folder: out });
    assert.ok(result, 'the command wrote the logs');
    assert.deepEqual(
      result.logs.map((l) => [l.run, path.basename(l.file), l.samples]),
      [[RUN, `exp-scripted_${RUN}.eval`, TASKS.length]],
    );
    assert.deepEqual(fs.readdirSync(out).sort(), [`exp-scripted_${RUN}.eval`, 'listing.json']);

    const zip = readZip(result.logs[0].file);
    const header = zip['header.json'] as InspectLogHeader;
    assert.equal(header.status, 'success');
    assert.equal(header.results.total_samples, TASKS.length);
    assert.deepEqual(
      Object.keys(zip)
        .filter((m) => m.startsWith('samples/'))
        .sort(),
      TASKS.map((t) => `samples/${t}_epoch_1.json`),
    );

    const summary = fixture.sweci('summarize', experiment, '--run', RUN, '--format', 'json');
    assert.equal(summary.code, 0, summary.err);
    const group = (JSON.parse(summary.out) as ExperimentSummary).groups[0];
    assert.deepEqual(group.rows.map((r) => r.task).sort(), TASKS);
    for (const row of group.rows) {
      const sample = zip[`samples/${row.task}_epoch_1.json`] as InspectSample;
      assert.equal(sample.scores.evoscore?.value, row.metrics.evoScore, row.task);
      assert.equal(sample.scores.final_a?.value, row.metrics.finalA, row.task);
      assert.equal(sample.scores.solved?.value, row.metrics.solved, row.task);
      assert.equal(sample.scores.zero_regression?.value, row.metrics.zeroRegression, row.task);
    }
    assert.equal(header.results.scores.find((s) => s.name === 'evoscore')?.metrics.mean?.value, group.average.evoScore);
  });

  test("Export Inspect Log scores EvoScore at the chart's γ, as the views show it", async () => {
    const sweci = await api();
    sweci.showChart();
    // As the chart's γ slider sends it (the host keeps it for the workspace).
    await sweci.chartReceive({ type: 'gamma-changed', gamma: 0.5 });
    try {
      const out = path.join(fixture.tmp, 'inspect-gamma');
      const result = await vscode.commands.executeCommand<InspectExportResult | undefined>('sweci.exportInspectLog', { experiment, run: RUN, folder: out });
      assert.ok(result, 'the command wrote the logs');
      const zip = readZip(result.logs[0].file);
      const summary = fixture.sweci('summarize', experiment, '--run', RUN, '--gamma', '0.5', '--format', 'json');
      assert.equal(summary.code, 0, summary.err);
      const parsed = JSON.parse(summary.out) as ExperimentSummary;
      const at = parsed.gammas.indexOf(0.5);
      assert.ok(at > 0, 'sweci summarize scores at γ = 0.5 too');
      for (const row of parsed.groups[0].rows) {
        const evo = (zip[`samples/${row.task}_epoch_1.json`] as InspectSample).scores.evoscore;
        assert.equal(evo?.metadata?.gamma, 0.5, row.task);
        const atHalf = row.evo[at];
        assert.notEqual(atHalf, undefined, `sweci summarize --gamma 0.5 gives ${row.task}'s EvoScore at 0.5`);
        assert.equal(evo?.value, atHalf, row.task);
      }
      assert.equal((zip['header.json'] as InspectLogHeader).eval.config.gamma, 0.5);
    } finally {
      await sweci.chartReceive({ type: 'gamma-changed', gamma: 1 });
    }
  });

  test('Export Inspect Log on bad input says what to do and writes nothing', async () => {
    const sweci = await api();
    const out = path.join(fixture.tmp, 'inspect-bad');

    // A run the experiment does not have.
    let before = sweci.lastMessages().length;
    const unknown = await vscode.commands.executeCommand<InspectExportResult | undefined>('sweci.exportInspectLog', { experiment, run: 'nope', folder: out });
    assert.equal(unknown, undefined);
    let said = await until('the unknown run is named', () =>
      sweci
        .lastMessages()
        .slice(before)
        .find((m) => m.level === 'error'),
    );
    assert.match(said.text, new RegExp(`^Export Inspect Log: .*has no run named "nope"; its runs: ${RUN}\\. Give one of them`));
    assert.equal(fs.existsSync(out), false, 'nothing was written');

    // A run row of the Iterations view while the open task is no experiment's (or none is open).
    before = sweci.lastMessages().length;
    const row = await vscode.commands.executeCommand<InspectExportResult | undefined>('sweci.exportInspectLog', {
      type: 'run',
      summary: { info: { name: RUN } },
    });
    assert.equal(row, undefined);
    said = await until('the missing experiment is said', () =>
      sweci
        .lastMessages()
        .slice(before)
        .find((m) => m.level === 'error'),
    );
    assert.match(said.text, /is not a task of an experiment: .*pick the experiment folder/);
    assert.equal(fs.existsSync(out), false, 'nothing was written');
  });
});
