// sweci summarize: the reference's table over an experiment, in the format asked for.
import { scoringRulesOf, type ScoringValues } from './scoring-options';
import * as path from 'node:path';
import { requireExperiment } from '../../core/batch/experiment';
import { summarizeExperiment } from '../../core/batch/experiment-summary';
import { formatSummary, SUMMARY_FORMATS, type SummaryFormat } from '../../core/batch/summary-format';
import { summarizeSequence } from '../../core/sequence/sequence-summary';
import { readSequenceSettings } from '../../core/sequence/sequence-settings';
import { UserError } from '../../core/util/errors';
import { cliSettings } from '../cli-settings';
import { formatClMetrics } from './sequence-format';

export interface SummarizeValues extends Record<string, unknown>, ScoringValues {
  gamma?: string;
  format?: string;
  run?: string;
  maxEpoch?: string;
  zeroShot?: string;
  clWeights?: string;
}

export function parseGammas(text: string | undefined): number[] {
  if (!text) return [];
  return text.split(',').map((part) => {
    const g = Number(part.trim());
    if (!Number.isFinite(g) || g <= 0) throw new UserError(`--gamma takes numbers greater than 0 separated by commas, e.g. 1,1.2; "${part}" is not one.`);
    return g;
  });
}

export async function summarizeCommand(dir: string, values: SummarizeValues): Promise<number> {
  const format = (values.format ?? 'table') as SummaryFormat;
  if (!SUMMARY_FORMATS.includes(format)) throw new UserError(`--format must be one of ${SUMMARY_FORMATS.join(', ')}, not "${values.format}".`);
  const maxEpoch = values.maxEpoch === undefined ? undefined : Number(values.maxEpoch);
  if (maxEpoch !== undefined && (!Number.isInteger(maxEpoch) || maxEpoch < 1))
    throw new UserError(`--max-epoch must be a whole number of 1 or more, not "${values.maxEpoch}".`);
  await requireExperiment(path.resolve(dir));
  const summary = await summarizeExperiment(path.resolve(dir), {
    gammas: parseGammas(values.gamma),
    ...(values.run ? { run: values.run } : {}),
    ...(maxEpoch ? { maxEpoch } : {}),
    scoring: scoringRulesOf(values),
  });
  process.stdout.write(formatSummary(summary, format));
  // A sequence's experiment: its results matrix and continual-learning metrics too (not in csv or json, whose shape is the table's).
  const cl =
    format === 'table' || format === 'markdown' ? await summarizeSequence(dir, { zeroShotDir: values.zeroShot, weights: clWeightsOf(values) }) : undefined;
  if (cl) process.stdout.write(`\n${formatClMetrics(cl)}\n`);
  return 0;
}

/** --cl-weights, through the settings' one parser. */
function clWeightsOf(values: SummarizeValues) {
  const settings = cliSettings(values);
  return readSequenceSettings(settings.read, settings.label).weights;
}
