// The results matrix and the continual-learning metrics as text, for sweci run --sequence and
// sweci summarize.
import * as path from 'node:path';
import type { SequenceSummary } from '../../core/continual/sequence-summary';

const cell = (v: number | null | undefined): string => (v === null || v === undefined ? '  · ' : v.toFixed(2).padStart(4));

export function formatClMetrics({ results, metrics: m, zeroShotDir, weights: w }: SequenceSummary): string {
  const lines = [`results matrix of sequence ${results.sequence} (memory ${results.memory ? 'on' : 'off'}): row = after task, column = task re-run`];
  const width = Math.max(...results.tasks.map((t) => t.length));
  results.tasks.forEach((task, i) => {
    const row = results.matrix[i];
    lines.push(`  ${task.padEnd(width)}  ${results.tasks.map((_, j) => (row && j <= i ? cell(row[j]) : '  · ')).join(' ')}`);
  });
  const named: Array<[string, number | null, string | undefined]> = [
    ['ACC', m.acc, m.missing.acc],
    ['forgetting', m.forgetting, m.missing.forgetting],
    ['BWT', m.bwt, m.missing.bwt],
    ['FWT', m.fwt, m.missing.fwt],
    ['AULC', m.aulc, m.missing.aulc],
    ['TUE', m.tue, m.missing.tue],
    ['CL-Plasticity', m.plasticity, m.missing.plasticity],
    ['CL-Stability', m.stability, m.missing.stability],
    ['CL-F1', m.f1, m.missing.f1],
    ['CL-Fβ', m.fBeta, m.missing.fBeta],
    ['CL-Score', m.score, m.missing.score],
  ];
  for (const [name, value, why] of named) {
    const from =
      name === 'FWT' && value !== null && zeroShotDir
        ? `  (zero-shot: ${path.basename(zeroShotDir)})`
        : name === 'CL-Score' && value !== null
          ? `  (λF ${w.forgetting} · λFT ${w.forwardTransfer} · λBWT ${w.backwardTransfer} · λAULC ${w.aulc} · λTUE ${w.toolUseEfficiency} · β ${w.beta})`
          : '';
    lines.push(`  ${name.padEnd(14)} ${value === null ? `n/a (${why ?? 'not measured'})` : value.toFixed(4)}${from}`);
  }
  return lines.join('\n');
}
