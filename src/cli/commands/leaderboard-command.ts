// sweci leaderboard: many experiments ranked together, with the uncertainty the paper's figures
// leave out. Every input is checked before anything is read; nothing is written.
import { scoringRulesOf, type ScoringValues } from './scoring-options';
import { DEFAULT_GAMMAS, DEFAULT_RESAMPLES } from '../../core/leaderboard/build-leaderboard';
import { computeLeaderboard } from '../../core/leaderboard/compute-leaderboard';
import { LEADERBOARD_FORMATS, formatLeaderboard, type LeaderboardFormat } from '../../core/leaderboard/leaderboard-format';
import { gammaKeySchema, TASKS_POLICIES, type LeaderboardRecord, type TasksPolicy } from '../../shared/leaderboard-record';
import { UserError } from '../../core/util/errors';

const MAX_RESAMPLES = 1_000_000;

export interface LeaderboardValues extends ScoringValues {
  file?: string;
  withHuman?: boolean;
  gamma?: string;
  bootstrap?: string;
  seed?: string;
  tasksPolicy?: string;
  maxEpoch?: string;
  format?: string;
  wide?: boolean;
}

/** --gamma as keys: each γ > 0 written plainly ("1.0" → "1"), "1" added when absent, repeats dropped. */
export function parseGammaKeys(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_GAMMAS];
  const keys: string[] = [];
  for (const part of text.split(',')) {
    const g = Number(part.trim());
    const key = String(g);
    if (part.trim() === '' || !Number.isFinite(g) || g <= 0 || !gammaKeySchema.safeParse(key).success)
      throw new UserError(`--gamma takes numbers greater than 0 separated by commas, e.g. 0.8,1,1.2; "${part}" is not one.`);
    if (!keys.includes(key)) keys.push(key);
  }
  if (!keys.includes('1')) keys.push('1');
  return keys;
}

function wholeNumber(flag: string, text: string | undefined, min: number, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min) throw new UserError(`${flag} must be a whole number of ${min} or more, not "${text}".`);
  return n;
}

/** The leaderboard `values` ask for, over `args` (experiment folders, experiment#run): every flag checked before anything is read. */
export async function leaderboardRecordFor(args: readonly string[], values: LeaderboardValues): Promise<LeaderboardRecord> {
  const tasksPolicy = (values.tasksPolicy ?? 'common') as TasksPolicy;
  if (!TASKS_POLICIES.includes(tasksPolicy)) throw new UserError(`--tasks-policy must be ${TASKS_POLICIES.join(' or ')}, not "${values.tasksPolicy}".`);
  const gammas = parseGammaKeys(values.gamma);
  if (values.bootstrap !== undefined && Number(values.bootstrap) === 0)
    throw new UserError('--bootstrap 0 gives no interval: give 1 or more resamples (default 10000).');
  const resamples = wholeNumber('--bootstrap', values.bootstrap, 1, DEFAULT_RESAMPLES);
  // Every resample's draws are kept (one number per repository): a bound keeps them in memory.
  if (resamples > MAX_RESAMPLES) throw new UserError(`--bootstrap takes at most ${MAX_RESAMPLES} resamples, not ${resamples}.`);
  const seed = values.seed === undefined ? 0 : Number(values.seed);
  if (!Number.isSafeInteger(seed)) throw new UserError(`--seed must be a whole number, not "${values.seed}".`);
  const maxEpoch = values.maxEpoch === undefined ? undefined : wholeNumber('--max-epoch', values.maxEpoch, 1, 0);
  return computeLeaderboard(
    { ...(values.file ? { file: values.file } : {}), experiments: args, withHuman: !!values.withHuman },
    {
      gammas,
      resamples,
      seed,
      tasksPolicy,
      ...(maxEpoch !== undefined ? { maxEpoch } : {}),
      scoring: scoringRulesOf(values),
    },
  );
}

export async function leaderboardCommand(args: readonly string[], values: LeaderboardValues): Promise<number> {
  const format = (values.format ?? 'table') as LeaderboardFormat;
  if (!LEADERBOARD_FORMATS.includes(format)) throw new UserError(`--format must be one of ${LEADERBOARD_FORMATS.join(', ')}, not "${values.format}".`);
  if (values.wide && format !== 'table') throw new UserError(`--wide is for --format table (${format} always has every column): leave --wide out.`);
  process.stdout.write(formatLeaderboard(await leaderboardRecordFor(args, values), format, { wide: !!values.wide }));
  return 0;
}
