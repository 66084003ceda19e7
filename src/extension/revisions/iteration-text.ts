// Text for iterations in views and the status bar (no VS Code API, unit-tested; its words through
// @vscode/l10n, which activate/features.ts configures with the extension's bundle).
import * as l10n from '@vscode/l10n';
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
  if (record.gap < 0) return l10n.t('pytest did not run');
  const parts = [formatChange(changeOf(record, line0)), l10n.t('gap {0}', record.gap)];
  if (record.regressions.length) parts.push(`↓${record.regressions.length}`);
  const flags = [
    record.inflated?.length ? l10n.t('inflated') : undefined,
    record.tampered.length ? l10n.t('tampered') : undefined,
    record.harness_tampering?.length ? l10n.t('harness') : undefined,
    record.oversized?.length ? l10n.t('too large') : undefined,
    record.isolation === 'none' && record.iteration > 0 ? l10n.t('not isolated') : undefined,
  ].filter(Boolean);
  if (flags.length) parts.push(`⚠ ${flags[0]}${flags.length > 1 ? ` +${flags.length - 1}` : ''}`);
  return parts.join(' · ');
}

/** A solved run's word in the Iterations view: never plainly "solved" when its score rests on a flag. */
export function runSolvedText(scoreFlags: readonly RunFlag[]): string {
  return flaggedScore(l10n.t('solved'), scoreFlags);
}

function stepLine(name: string, s: RoleStepRecord | undefined): string | undefined {
  if (!s) return undefined;
  const bits = [s.kind === 'human' ? l10n.t('human') : s.agent];
  if (s.execution_time !== undefined) bits.push(l10n.t('{0} s', s.execution_time.toFixed(1)));
  const tin = formatTokens(s.input_tokens) ?? '?';
  const tout = formatTokens(s.output_tokens) ?? '?';
  if (s.input_tokens !== undefined || s.output_tokens !== undefined)
    bits.push(
      s.usage_source === 'wire'
        ? l10n.t('{0} in / {1} out tokens in {2} model calls', tin, tout, s.model_calls ?? 0)
        : l10n.t('{0} in / {1} out tokens', tin, tout),
    );
  if (s.cost_usd !== undefined) bits.push(`$${s.cost_usd.toFixed(2)}`);
  if (s.tries > 1) bits.push(l10n.t('{0} tries', s.tries));
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
  const which = record.iteration === 0 ? l10n.t('Base run') : l10n.t('Iteration {0}', record.iteration);
  const lines = [l10n.t('**{0}** of {1}', which, record.run), ''];
  if (record.gap < 0) lines.push(l10n.t('pytest did not run: {0}', escapeMarkdown(record.pytest_error ?? l10n.t('unknown reason'))));
  else
    lines.push(
      `${formatChange(changeOf(record, line0))} · ${l10n.t('{0}/{1} target tests pass · gap {2}', String(record.passed), record.target_passed, record.gap)}`,
    );
  for (const l of [stepLine(l10n.t('Architect'), record.architect), stepLine(l10n.t('Programmer'), record.programmer)]) if (l) lines.push('', l);
  if (record.pytest_time !== undefined) lines.push('', l10n.t('pytest: {0} s', record.pytest_time.toFixed(1)));
  if (record.regressions.length) {
    lines.push('', l10n.t('Regressed ({0}):', record.regressions.length));
    for (const id of record.regressions.slice(0, 8)) lines.push(`- \`${id}\``);
    if (record.regressions.length > 8) lines.push(`- ${l10n.t('… {0} more', record.regressions.length - 8)}`);
  }
  if (record.tampered.length) lines.push('', l10n.t('Test files changed by the agent (restored, not scored): {0}', escapeMarkdown(record.tampered.join(', '))));
  if (record.outside_changes.length) lines.push('', l10n.t('Changed outside app/code: {0}', escapeMarkdown(record.outside_changes.join(', '))));
  if (record.harness_tampering?.length) {
    lines.push('', l10n.t('Changes how pytest collects or reports tests (harness tampering): {0}', escapeMarkdown(record.harness_tampering.join(', '))));
  }
  if (record.inflated?.length) {
    const n = record.inflated_count ?? record.inflated.length;
    const names = `${escapeMarkdown(record.inflated.slice(0, 5).join(', '))}${n > 5 ? ', …' : ''}`;
    lines.push(
      '',
      n === 1
        ? l10n.t('Inflated: 1 passed test the target never had (counted by pytest, not by the target): {0}', names)
        : l10n.t('Inflated: {0} passed tests the target never had (counted by pytest, not by the target): {1}', n, names),
    );
  }
  if (record.oversized?.length) {
    lines.push('', l10n.t('Too large to commit (sweci.integrity.maxFileMb or maxIterationMb), not scored: {0}', escapeMarkdown(record.oversized.join(', '))));
  }
  if (record.isolation === 'none' && record.iteration > 0)
    lines.push('', l10n.t('Not isolated: the agents and the code under test could read the oracle and change the records.'));
  if (record.note) lines.push('', escapeMarkdown(record.note));
  lines.push('', l10n.t('commit {0}', `\`${record.commit.slice(0, 12)}\``));
  return lines.join('\n');
}
