// The results matrix and the continual-learning metrics as text, for sweci run --sequence and
// sweci summarize.
import { sequenceData } from '../../core/sequence/sequence-data';
import type { SequenceSummary } from '../../core/sequence/sequence-summary';
import { MATRIX_CELLS_MEANING } from '../../core/sequence/sequence-settings';

const cell = (v: number | null | undefined): string => (v === null || v === undefined ? '  · ' : v.toFixed(2).padStart(4));

export function formatClMetrics(summary: SequenceSummary): string {
  const { results } = summary;
  const lines = [
    `results matrix of sequence ${results.sequence} (memory ${results.memory ? 'on' : 'off'}): row = after task, column = task re-run`,
    `  each entry: ${MATRIX_CELLS_MEANING[results.cells]}`,
  ];
  const width = Math.max(...results.tasks.map((t) => t.length));
  results.tasks.forEach((task, i) => {
    const row = results.matrix[i];
    lines.push(`  ${task.padEnd(width)}  ${results.tasks.map((_, j) => (row && j <= i ? cell(row[j]) : '  · ')).join(' ')}`);
  });
  // The metrics, their order, names and notes are the chart's (one list, in sequence-data.ts).
  for (const m of sequenceData(summary).metrics) {
    const shown = m.value === null ? `n/a (${m.missing ?? 'not measured'})` : `${m.value.toFixed(4)}${m.note ? `  (${m.note})` : ''}`;
    lines.push(`  ${m.name.padEnd(14)} ${shown}`);
  }
  return lines.join('\n');
}
