// The sequence data the chart view draws: computed from a results file through the one summary,
// and accepted by the protocol's guard only when well formed (the webview drops anything else).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { emptyClResults, writeClResults } from '../../../src/core/sequence/cl-results';
import { sequenceData } from '../../../src/core/sequence/sequence-data';
import { summarizeSequence } from '../../../src/core/sequence/sequence-summary';
import { readSequenceSettings } from '../../../src/core/sequence/sequence-settings';
import { DEFAULT_CL_WEIGHTS } from '../../../src/core/sequence/cl-metrics';
import { isHostMessage } from '../../../src/shared/chart-protocol';

let tmp: string;
const TASKS = ['t1', 't2', 't3'];

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-seqdata-'));
  // With memory: task 1 solved, broken by task 2; task 3 not done yet.
  await writeClResults(path.join(tmp, 'memory'), {
    ...emptyClResults('seq', TASKS, true),
    matrix: [[1, null, null], [0, 1, null], null],
    runs: [{ seconds: 10, resolved: true }, { seconds: 30, resolved: true }, null],
  });
  // Without memory, beside it: only task 1 solved.
  await writeClResults(path.join(tmp, 'zero'), {
    ...emptyClResults('seq', TASKS, false),
    matrix: [
      [1, null, null],
      [1, 0, null],
      [1, 0, 0],
    ],
  });
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test("AULC of an unfinished sequence is the mean of the learning curve's drawn points, in the summary and the chart alike", async () => {
  const dir = path.join(tmp, 'unfinished');
  await writeClResults(dir, { ...emptyClResults('seq', TASKS, false), matrix: [[1, null, null], [1, 0, null], null] });
  // A success rate is drawn as it is (0.5), not dropped as "not measured".
  const rates = path.join(tmp, 'rates');
  await writeClResults(rates, { ...emptyClResults('seq', TASKS, false), matrix: [[0.5, null, null], null, null] });
  const withRates = await summarizeSequence(rates);
  assert.deepEqual(withRates && sequenceData(withRates).matrix, [[0.5], [], []]);
  const summary = await summarizeSequence(dir);
  assert.ok(summary);
  const d = sequenceData(summary);
  assert.deepEqual(d.learning, [1, 0.5, null]);
  assert.equal(summary.metrics.aulc, 0.75, 'not (1 + 0.5 + 0.5) / 3 with the last value carried over the gap');
  assert.equal(d.cells, 'fraction', 'the chart is told what the entries hold');
  assert.equal(d.metrics.find((m) => m.name === 'AULC')?.value, 0.75);
});

test('the matrix, the curves and the metrics of a sequence half done; FWT against the zero-shot run beside it', async () => {
  const summary = await summarizeSequence(path.join(tmp, 'memory'));
  assert.ok(summary);
  const d = sequenceData(summary, 't2');
  assert.deepEqual(d.matrix, [[1], [0, 1], []]);
  assert.equal(d.current, 1);
  assert.deepEqual(d.learning, [1, 1, null], 'first attempts 1, 1; task 3 not done: no point');
  assert.deepEqual(d.accuracy, [1, 0.5, null]);
  assert.equal(d.zeroShot, 'zero');
  const metric = (name: string) => d.metrics.find((m) => m.name === name);
  // FWT = a[1][1] − z[1] (task 3 has no first attempt yet).
  assert.equal(metric('FWT')?.value, 1);
  assert.equal(metric('FWT')?.note, 'zero-shot: zero');
  assert.equal(metric('CL-Score')?.note, 'λF 1 · λFT 1 · λBWT 1 · λAULC 1 · λTUE 0 · β 1');
  assert.equal(metric('BWT')?.value, null, 'the last row is not measured yet');
  assert.match(metric('ACC')?.missing ?? '', /last task's row/);
  assert.ok(isHostMessage({ type: 'sequence', sequence: d }));
  assert.ok(isHostMessage({ type: 'sequence', sequence: d }));
  assert.ok(isHostMessage({ type: 'sequence', sequence: null }));
  assert.equal(sequenceData(summary, 'elsewhere').current, undefined);
});

test('the guard refuses a malformed sequence', async () => {
  const d = sequenceData((await summarizeSequence(path.join(tmp, 'memory')))!);
  const bad: unknown[] = [
    { ...d, matrix: [[1], [0, 1]] },
    { ...d, matrix: [[1, 0], [0, 1], []] },
    { ...d, matrix: [[2], [0, 1], []] },
    { ...d, learning: [1, 1] },
    { ...d, accuracy: [1, 7, null] },
    { ...d, current: 3 },
    { ...d, tasks: ['t1', 't2', 3] },
    { ...d, metrics: [{ name: 'ACC', value: 'high' }] },
  ];
  for (const b of bad) assert.equal(isHostMessage({ type: 'sequence', sequence: b }), false, JSON.stringify(b));
  assert.equal(isHostMessage({ type: 'sequence', sequence: d, extra: 1 }), false);
});

test("CL-Score's weights: from settings (an object) or the command line (name=number pairs); bad ones are refused by name", () => {
  const read = (v: unknown) => (key: string) => (key === 'sequence.clWeights' ? v : undefined);
  assert.deepEqual(readSequenceSettings(read(undefined)).weights, DEFAULT_CL_WEIGHTS);
  assert.deepEqual(readSequenceSettings(read({ ft: 0.5, tue: 0.25 })).weights, { ...DEFAULT_CL_WEIGHTS, forwardTransfer: 0.5, toolUseEfficiency: 0.25 });
  assert.deepEqual(readSequenceSettings(read('forgetting=2, beta=0.5')).weights, { ...DEFAULT_CL_WEIGHTS, forgetting: 2, beta: 0.5 });
  assert.throws(
    () => readSequenceSettings(read({ lambda: 1 })),
    /sweci\.sequence\.clWeights has no weight "lambda" \(names: forgetting, ft, bwt, aulc, tue, beta/,
  );
  assert.throws(() => readSequenceSettings(read('ft=-1')), /sets ft to "-1": it must be a number of 0 or more/);
  assert.throws(() => readSequenceSettings(read({ beta: 0 })), /sets beta to 0: it must be a number greater than 0/);
  assert.throws(() => readSequenceSettings(read('ft')), /takes name=number pairs/);
});
