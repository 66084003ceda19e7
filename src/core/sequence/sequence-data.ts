// What the chart view (and sweci's text) shows of a sequence: its results matrix, the learning and accuracy curves
// and the continual-learning metrics with the reason any is missing. Plain data (it crosses to
// the webview); computed from the one sequence summary, with each metric's one definition.
import * as path from 'node:path';
import { accuracyCurve, learningCurve, type ClMetrics, type ClWeights } from './cl-metrics';
import type { SequenceSummary } from './sequence-summary';
import type { SequenceData, SequenceMetric } from '../../shared/sequence-data-schema';

export type { SequenceData, SequenceMetric };

const NAMES: Array<[keyof ClMetrics['missing'], string]> = [
  ['acc', 'ACC'],
  ['forgetting', 'forgetting'],
  ['bwt', 'BWT'],
  ['fwt', 'FWT'],
  ['aulc', 'AULC'],
  ['tue', 'TUE'],
  ['plasticity', 'CL-Plasticity'],
  ['stability', 'CL-Stability'],
  ['f1', 'CL-F1'],
  ['fBeta', 'CL-Fβ'],
  ['score', 'CL-Score'],
];

export function sequenceData(summary: SequenceSummary, currentTask?: string): SequenceData {
  const { results, metrics } = summary;
  // Rows not done yet are empty; a done row keeps only j ≤ i (later entries are never measured).
  const matrix = results.matrix.map((row, i) => (row ? row.slice(0, i + 1).map((v) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : null)) : []));
  const current = currentTask === undefined ? -1 : results.tasks.indexOf(currentTask);
  const zeroShot = summary.zeroShotDir && path.basename(summary.zeroShotDir);
  return {
    sequence: results.sequence,
    memory: results.memory,
    tasks: [...results.tasks],
    cells: results.cells,
    matrix,
    ...(current >= 0 ? { current } : {}),
    learning: learningCurve(matrix),
    accuracy: accuracyCurve(matrix),
    metrics: NAMES.map(([key, name]) => {
      const note = key === 'score' ? weightsNote(summary.weights) : key === 'fwt' && zeroShot ? `zero-shot: ${zeroShot}` : undefined;
      return { name, value: metrics[key], ...(metrics[key] === null ? { missing: metrics.missing[key] ?? 'not measured' } : {}), ...(note ? { note } : {}) };
    }),
    ...(zeroShot ? { zeroShot } : {}),
  };
}

function weightsNote(w: ClWeights): string {
  return `λF ${w.forgetting} · λFT ${w.forwardTransfer} · λBWT ${w.backwardTransfer} · λAULC ${w.aulc} · λTUE ${w.toolUseEfficiency} · β ${w.beta}`;
}
