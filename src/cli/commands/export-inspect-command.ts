// sweci export inspect: an experiment's finished runs as Inspect logs (one .eval per run) in a
// folder, with the listing.json Inspect's viewer reads when the folder is served.
import * as path from 'node:path';
import { exportInspectLogs } from '../../core/export/inspect-log/export-inspect-logs';
import { UserError } from '../../core/util/errors';
import { scoringRulesOf, type ScoringValues } from './scoring-options';

export interface ExportInspectValues extends ScoringValues {
  run?: string;
  out?: string;
  gamma?: string;
}

export async function exportInspectCommand(dir: string, values: ExportInspectValues): Promise<number> {
  if (!values.out) throw new UserError('export inspect needs --out <dir>: the folder the Inspect logs are written to (made when missing).');
  const gamma = values.gamma === undefined ? 1 : Number(values.gamma);
  if (!Number.isFinite(gamma) || gamma <= 0) throw new UserError(`--gamma must be a number greater than 0, e.g. 1.2, not "${values.gamma}".`);
  const result = await exportInspectLogs(path.resolve(dir), {
    outDir: values.out,
    gamma,
    scoring: scoringRulesOf(values),
    ...(values.run !== undefined ? { run: values.run } : {}),
  });
  for (const s of result.skipped) process.stderr.write(`Run ${s.run} left out: ${s.reason}.\n`);
  for (const log of result.logs) process.stdout.write(`${log.file}  (run ${log.run}, ${log.samples} task${log.samples === 1 ? '' : 's'})\n`);
  process.stdout.write(`${result.listing}  (the folder's manifest for Inspect's viewer)\n`);
  return 0;
}
