// sweci compare: two experiments side by side.
import { scoringRulesOf, type ScoringValues } from './scoring-options';
import * as path from 'node:path';
import { compareExperiments, formatComparison } from '../../core/batch/compare-experiments';
import { requireExperiment } from '../../core/batch/experiment';
import { UserError } from '../../core/util/errors';

export interface CompareValues extends ScoringValues {
  runA?: string;
  runB?: string;
  maxEpoch?: string;
  format?: string;
}

export async function compareCommand(a: string, b: string, values: CompareValues): Promise<number> {
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json') throw new UserError(`--format must be table or json, not "${format}".`);
  const maxEpoch = values.maxEpoch === undefined ? undefined : Number(values.maxEpoch);
  if (maxEpoch !== undefined && (!Number.isInteger(maxEpoch) || maxEpoch < 1))
    throw new UserError(`--max-epoch must be a whole number of 1 or more, not "${values.maxEpoch}".`);
  for (const dir of [a, b]) await requireExperiment(path.resolve(dir));
  const comparison = await compareExperiments(path.resolve(a), path.resolve(b), {
    ...(values.runA ? { runA: values.runA } : {}),
    ...(values.runB ? { runB: values.runB } : {}),
    ...(maxEpoch ? { maxEpoch } : {}),
    scoring: scoringRulesOf(values),
  });
  process.stdout.write(formatComparison(comparison, format));
  return 0;
}
