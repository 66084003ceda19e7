// sweci.sequence.*: how a task sequence runs and is scored. One parser for the extension's
// settings and the CLI (where --memory and --cl-weights set them).
import { UserError } from '../util/errors';
import { readChoice, readFlag, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { DEFAULT_CL_WEIGHTS, type ClWeights } from './cl-metrics';

/**
 * What a results-matrix entry a(i, j) holds: SWE-Bench-CL's success rate (the fraction of task j's
 * FAIL_TO_PASS ∪ PASS_TO_PASS tests that pass, the paper's a_ij = p_pass / p_total), or whether
 * task j is resolved as SWE-bench grades it (1 or 0).
 */
export const MATRIX_CELLS = ['fraction', 'resolved'] as const;
export type MatrixCells = (typeof MATRIX_CELLS)[number];

/** What an entry means, as the CLI's summary and the chart say it. */
export const MATRIX_CELLS_MEANING: Record<MatrixCells, string> = {
  fraction: "the share of the task's tests that pass (SWE-Bench-CL's a_ij = p_pass / p_total)",
  resolved: 'whether the task is resolved as SWE-bench grades it (1 or 0)',
};

export interface SequenceRunSettings {
  /** Carry the agents' memory folder from task to task (off: the paper's no-memory baseline). */
  memory: boolean;
  /** What the results matrix holds. */
  cells: MatrixCells;
  /** CL-Score's λ weights and CL-Fβ's β. */
  weights: ClWeights;
}

/** The names a user writes (the paper's λ subscripts) → ClWeights' fields. */
export const CL_WEIGHT_NAMES: Record<string, keyof ClWeights> = {
  forgetting: 'forgetting',
  ft: 'forwardTransfer',
  bwt: 'backwardTransfer',
  aulc: 'aulc',
  tue: 'toolUseEfficiency',
  beta: 'beta',
};

export function readSequenceSettings(read: SettingReader, label: SettingLabel = settingName): SequenceRunSettings {
  return {
    memory: readFlag(read, label, 'sequence.memory', false),
    cells: readChoice(read, label, 'sequence.matrix', MATRIX_CELLS),
    weights: readClWeights(read, label),
  };
}

/** An object ({"ft": 0.5}) from settings, or "ft=0.5,tue=0.1" from the command line; unset names keep their default. */
function readClWeights(read: SettingReader, label: SettingLabel): ClWeights {
  const key = 'sequence.clWeights';
  const v = read(key);
  if (v === undefined || v === null || v === '') return { ...DEFAULT_CL_WEIGHTS };
  const known = Object.keys(CL_WEIGHT_NAMES).join(', ');
  const named = label(key);
  const fail = (why: string) =>
    new UserError(`${named.charAt(0).toUpperCase()}${named.slice(1)} ${why} (names: ${known}; e.g. ft=0.5,tue=0.1).`, { setting: key });
  let pairs: Array<[string, unknown]>;
  if (typeof v === 'string') {
    pairs = v.split(',').map((part) => {
      const eq = part.indexOf('=');
      if (eq <= 0) throw fail(`takes name=number pairs separated by commas, not "${part.trim()}"`);
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });
  } else if (typeof v === 'object' && !Array.isArray(v)) pairs = Object.entries(v as Record<string, unknown>);
  else throw fail(`must be an object of weights, not ${JSON.stringify(v)}`);
  const weights = { ...DEFAULT_CL_WEIGHTS };
  for (const [name, raw] of pairs) {
    const field = CL_WEIGHT_NAMES[name];
    if (!field) throw fail(`has no weight "${name}"`);
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw !== '' ? Number(raw) : NaN;
    if (!Number.isFinite(n) || n < 0 || (field === 'beta' && n === 0))
      throw fail(`sets ${name} to ${JSON.stringify(raw)}: it must be a number ${field === 'beta' ? 'greater than 0' : 'of 0 or more'}`);
    weights[field] = n;
  }
  return weights;
}
