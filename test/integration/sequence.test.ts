// In the real extension host: SWE-CI: Run Sequence… runs a SWE-Bench-CL sequence (a generated
// repository, real test patches) with the agents of the settings, the same scripted Programmer
// the CLI's test runs, with memory from the setting. The results matrix and the message say what
// the CLI says; a folder that holds something else, or a human agent, is refused up front.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SequenceSummary } from '../../src/core/sequence/sequence-summary';
import { buildSequenceFixture, type SequenceFixture } from '../unit/helpers/sequence-fixture';
import { api, showScriptedAgents } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('sweci');
const global = vscode.ConfigurationTarget.Global;

suite('Run Sequence', function () {
  this.timeout(300_000);
  let tmp: string;
  let fx: SequenceFixture;
  let keys: string[];

  suiteSetup(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-sequence-')));
    fx = await buildSequenceFixture(tmp);
    // The CLI test's settings file, as the user's settings.
    const settings = JSON.parse(fs.readFileSync(fx.settingsFile, 'utf8')) as Record<string, unknown>;
    keys = [...Object.keys(settings).map((k) => k.replace(/^sweci\./, '')), 'sequence.memory', 'loop.maxIterations', 'runtime', 'pytest.reportFormat'];
    for (const [k, v] of Object.entries(settings)) await cfg().update(k.replace(/^sweci\./, ''), v, global);
    await cfg().update('sequence.memory', true, global);
    await cfg().update('loop.maxIterations', 2, global);
    await cfg().update('runtime', 'local', global);
    await cfg().update('pytest.reportFormat', 'junit', global);
  });

  suiteTeardown(async () => {
    for (const k of keys) await cfg().update(k, undefined, global);
    await showScriptedAgents(); // what every suite starts with (index.ts)
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the tasks run in order with memory; the matrix and the message show task 1 broken by the later tasks', async () => {
    const sweci = await api();
    const experimentDir = path.join(tmp, 'from-editor');
    const summary = await vscode.commands.executeCommand<SequenceSummary>('sweci.runSequence', {
      sequenceFile: fx.sequenceFile,
      repoPath: path.join(fx.reposDir, 'calc'),
      experimentDir,
    });
    assert.deepEqual(summary.results.tasks, fx.taskIds);
    assert.equal(summary.results.memory, true, 'memory comes from sweci.sequence.memory');
    assert.deepEqual(summary.results.matrix, [
      [1, null, null],
      [0, 1, null],
      [0, 1, 1],
    ]);
    assert.equal(summary.metrics.bwt, -0.5);
    assert.match(sweci.lastMessages().at(-1)?.text ?? '', /Sequence calc_sequence: 3 of 3 tasks done · ACC 0\.667 · BWT -0\.500\./);
    assert.ok(fs.existsSync(path.join(experimentDir, 'memory')), "the agents' memory was carried");
  });

  test('a folder holding other things, or a person as an agent, is refused before anything runs', async () => {
    const busy = path.join(tmp, 'busy');
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, 'notes.txt'), 'mine');
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('sweci.runSequence', { sequenceFile: fx.sequenceFile, repoPath: path.join(fx.reposDir, 'calc'), experimentDir: busy }),
      ),
      /is not empty and holds no sequence's runs; choose an empty folder/,
    );
    assert.deepEqual(fs.readdirSync(busy), ['notes.txt'], 'nothing written');
    await cfg().update('architect.agent', 'human', global);
    try {
      const fresh = path.join(tmp, 'fresh');
      await assert.rejects(
        Promise.resolve(
          vscode.commands.executeCommand('sweci.runSequence', {
            sequenceFile: fx.sequenceFile,
            repoPath: path.join(fx.reposDir, 'calc'),
            experimentDir: fresh,
          }),
        ),
        /A sequence runs without a person at each step: choose an agent for the architect \(sweci\.architect\.agent\)/,
      );
      assert.equal(fs.existsSync(fresh), false, 'nothing written');
    } finally {
      await cfg().update('architect.agent', 'custom', global);
    }
  });
});
