// Text for iterations in views and the status bar (no VS Code API, unit-tested).
import type { IterationRecord, RoleStepRecord } from '../../core/loop/iteration-record';
import { baselineOf, normalizedChange } from '../../shared/metrics/normalized-change';
import { flaggedScore, type RunFlag } from '../../shared/metrics/run-flags';

/** a(c) of `record` against the run's line 0; undefined when either pytest run did not run. */
export function changeOf(record: IterationRecord, line0: IterationRecord | undefined): number | undefined {
  const baseline = line0 && baselineOf(line0);
  if (!baseline || record.gap < 0) return undefined;
  return normalizedChange(record.pytest.passed ?? 0, baseline);
}

export function formatChange(a: number | undefined): string {
  return a === undefined ? 'a(c) –' : `a(c) ${a.toFixed(2)}`;
}

export function formatTokens(n: number | undefined): string | undefined {
  if (n === undefined) return undefined;
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/**
 * One short line that fits the side bar at its default width: a(c) · gap · regressions, and a
 * ⚠ with the first flag. Passed/target, the roles and a replay's commit subject are in the
 * tooltip (iterationTooltip) and the iteration view.
 */
export function iterationDescription(record: IterationRecord, line0: IterationRecord | undefined): string {
  if (record.gap < 0) return 'pytest did not run';
  const parts = [formatChange(changeOf(record, line0)), `gap ${record.gap}`];
  if (record.regressions.length) parts.push(`↓${record.regressions.length}`);
  const flags = [
    record.inflated?.length ? 'inflated' : undefined,
    record.tampered.length ? 'tampered' : undefined,
    record.harness_tampering?.length ? 'harness' : undefined,
    record.oversized?.length ? 'too large' : undefined,
    record.isolation === 'none' && record.iteration > 0 ? 'not isolated' : undefined,
  ].filter(Boolean);
  if (flags.length) parts.push(`⚠ ${flags[0]}${flags.length > 1 ? ` +${flags.length - 1}` : ''}`);
  return parts.join(' · ');
}

/** A solved run's word in the Iterations view: never plainly "solved" when its score rests on a flag. */
export function runSolvedText(scoreFlags: readonly RunFlag[]): string {
  return flaggedScore('solved', scoreFlags);
}

function stepLine(name: string, s: RoleStepRecord | undefined): string | undefined {
  if (!s) return undefined;
  const bits = [s.kind === 'human' ? 'human' : s.agent];
  if (s.execution_time !== undefined) bits.push(`${s.execution_time.toFixed(1)} s`);
  const tin = formatTokens(s.input_tokens);
  const tout = formatTokens(s.output_tokens);
  if (tin || tout) bits.push(`${tin ?? '?'} in / ${tout ?? '?'} out tokens${s.usage_source === 'wire' ? ` in ${s.model_calls ?? 0} model calls` : ''}`);
  if (s.cost_usd !== undefined) bits.push(`$${s.cost_usd.toFixed(2)}`);
  if (s.tries > 1) bits.push(`${s.tries} tries`);
  return `${name}: ${bits.join(', ')}`;
}

/**
 * Text for Markdown that shows as written: pytest's output, file names an agent chose and commit
 * subjects are not ours, and must not become links, images or formatting in a tooltip.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~]/g, '\\$&');
}

/** Markdown for the tooltip. */
export function iterationTooltip(record: IterationRecord, line0: IterationRecord | undefined): string {
  const lines = [`**${record.iteration === 0 ? 'Base run' : `Iteration ${record.iteration}`}** of ${record.run}`, ''];
  if (record.gap < 0) lines.push(`pytest did not run: ${escapeMarkdown(record.pytest_error ?? 'unknown reason')}`);
  else lines.push(`${formatChange(changeOf(record, line0))} · ${record.passed}/${record.target_passed} target tests pass · gap ${record.gap}`);
  for (const l of [stepLine('Architect', record.architect), stepLine('Programmer', record.programmer)]) if (l) lines.push('', l);
  if (record.pytest_time !== undefined) lines.push('', `pytest: ${record.pytest_time.toFixed(1)} s`);
  if (record.regressions.length) {
    lines.push('', `Regressed (${record.regressions.length}):`);
    for (const id of record.regressions.slice(0, 8)) lines.push(`- \`${id}\``);
    if (record.regressions.length > 8) lines.push(`- … ${record.regressions.length - 8} more`);
  }
  if (record.tampered.length) lines.push('', `Test files changed by the agent (restored, not scored): ${escapeMarkdown(record.tampered.join(', '))}`);
  if (record.outside_changes.length) lines.push('', `Changed outside app/code: ${escapeMarkdown(record.outside_changes.join(', '))}`);
  if (record.harness_tampering?.length) {
    lines.push('', `Changes how pytest collects or reports tests (harness tampering): ${escapeMarkdown(record.harness_tampering.join(', '))}`);
  }
  if (record.inflated?.length) {
    const n = record.inflated_count ?? record.inflated.length;
    lines.push(
      '',
      `Inflated: ${n} passed test${n === 1 ? '' : 's'} the target never had (counted by pytest, not by the target): ${escapeMarkdown(record.inflated.slice(0, 5).join(', '))}${n > 5 ? ', …' : ''}`,
    );
  }
  if (record.oversized?.length) {
    lines.push('', `Too large to commit (sweci.integrity.maxFileMb or maxIterationMb), not scored: ${escapeMarkdown(record.oversized.join(', '))}`);
  }
  if (record.isolation === 'none' && record.iteration > 0)
    lines.push('', 'Not isolated: the agents and the code under test could read the oracle and change the records.');
  if (record.note) lines.push('', escapeMarkdown(record.note));
  lines.push('', `commit \`${record.commit.slice(0, 12)}\``);
  return lines.join('\n');
}
