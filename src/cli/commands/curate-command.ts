// sweci curate: SWE-CI tasks from a repository's own history (the paper's §3.1 pipeline), and
// `sweci curate --status <out>`, the funnel of a curation so far.
import { existsSync } from 'node:fs';
import { plural } from '../../core/util/plural';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  checkOutFolder,
  mergeMined,
  readManifest,
  readRecords,
  sentBack,
  STAGES,
  writeManifest,
  writeRecords,
  type CurationManifest,
  type Stage,
} from '../../core/curate/curation-store';
import { curationStatus, formatFunnel, type CurationStatus } from '../../core/curate/funnel';
import { DEFAULT_MIN_CHANGED_LINES, DEFAULT_MIN_SOURCE_LINES, mineSpans, type MineOptions, type MineResult } from '../../core/curate/mine';
import { isCloneUrl, openSourceRepository } from '../../core/curate/source-repository';
import { withoutPassword } from '../../core/util/url-password';
import { DEFAULT_MAX_REPAIRS, runEnvStage } from '../../core/curate/env-stage';
import { DEFAULT_MIN_GAP, DEFAULT_TOP, rankCandidates, runFilterStage } from '../../core/curate/filter-stage';
import { DEFAULT_SPLIT, runPackStage } from '../../core/curate/pack-stage';
import { taskIdProblem } from '../../core/task/task-id';
import { connectDocker, pingEngine, type DockerConnection } from '../../core/runtime/docker/docker-connection';
import { UserError } from '../../core/util/errors';
import { repairAgentOf, type RepairAgentValues } from './curate-repair-agent';

export interface CurateValues extends RepairAgentValues {
  out?: string;
  status?: string;
  format?: string;
  branch?: string;
  lockfiles?: boolean;
  minChangedLines?: string;
  minSourceLines?: string;
  maxSpanCommits?: string;
  stage?: string;
  dryRun?: boolean;
  baseImage?: string;
  indexUrl?: string;
  findLinks?: string;
  maxRepairs?: string;
  minGap?: string;
  top?: string;
  split?: string;
  workers?: string;
  socket?: string;
}

function wholeNumber(flag: string, text: string | undefined, fallback: number | undefined, min: number): number | undefined {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new UserError(`${flag} must be a whole number of ${min} or more, not "${text}".`);
  return n;
}

function formatOf(values: CurateValues): 'text' | 'json' {
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UserError(`--format must be text or json, not "${format}".`);
  return format;
}

export async function curateCommand(repository: string | undefined, values: CurateValues, signal: AbortSignal): Promise<number> {
  const format = formatOf(values);
  if (values.status !== undefined) return statusOf(values.status, format);
  if (repository === undefined) throw new UserError('Give the repository to curate (a folder or a clone URL), e.g. sweci curate ./myproject --out tasks/.');
  const stage = values.stage ?? 'all';
  if (stage !== 'all' && !(STAGES as readonly string[]).includes(stage))
    throw new UserError(`--stage must be one of all, ${STAGES.join(', ')}; not "${stage}".`);
  if (!values.out && !values.dryRun) throw new UserError('Give --out <folder> for the curation (or --dry-run to mine and print only).');
  const out = values.out ? path.resolve(values.out) : undefined;
  const parsed: LaterOptions = {
    maxRepairs: wholeNumber('--max-repairs', values.maxRepairs, DEFAULT_MAX_REPAIRS, 0) as number,
    minGap: wholeNumber('--min-gap', values.minGap, DEFAULT_MIN_GAP, 1) as number,
    top: wholeNumber('--top', values.top, DEFAULT_TOP, 1) as number,
    split: values.split ?? DEFAULT_SPLIT,
    workers: wholeNumber('--workers', values.workers, 1, 1) as number,
  };
  const splitProblem = taskIdProblem(parsed.split);
  if (splitProblem)
    throw new UserError(`--split "${parsed.split}" cannot name metadata/<split>.csv because ${splitProblem}. Give a plain name, e.g. --split default.`);
  if (values.findLinks !== undefined && !isCloneUrl(values.findLinks) && !existsSync(values.findLinks)) {
    throw new UserError(`--find-links ${values.findLinks} does not exist. Give a folder of wheels (or an http(s) URL pip reads).`);
  }
  const options: Omit<MineOptions, 'signal'> = {
    lockfiles: !!values.lockfiles,
    minChangedLines: wholeNumber('--min-changed-lines', values.minChangedLines, DEFAULT_MIN_CHANGED_LINES, 0) as number,
    minSourceLines: wholeNumber('--min-source-lines', values.minSourceLines, DEFAULT_MIN_SOURCE_LINES, 0) as number,
    maxSpanCommits: wholeNumber('--max-span-commits', values.maxSpanCommits, undefined, 2),
  };
  const source = isCloneUrl(repository) ? repository : path.resolve(repository);
  const previous = out && !values.dryRun ? await checkOutFolder(out, source) : undefined;
  const repo = await openSourceRepository(repository, values.branch, values.dryRun ? undefined : out, signal);
  if (out && !values.dryRun && stage !== 'mine' && stage !== 'all') {
    if (!previous) throw new UserError(`${out} holds no mined curation yet: run the mine stage first (sweci curate ${repository} --out ${values.out}).`);
    return laterStages(stage as Stage, out, repo.dir, previous, values, parsed, format, signal);
  }
  if (out && previous && stage === 'all') {
    // Mining finished before: a finished stage is not redone (--stage mine mines again and merges).
    return laterStages('all', out, repo.dir, previous, values, parsed, format, signal);
  }
  process.stderr.write(`Mining the first-parent history of ${repo.ref} in ${repo.origin}…\n`);
  const started = performance.now();
  const mined: MineResult = await mineSpans(repo.dir, repo.ref, { ...options, signal });
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  const at = new Date().toISOString();
  const manifest: CurationManifest = {
    format: 'sweci-curation',
    version: 1,
    source,
    branch: repo.ref,
    tip: mined.tip,
    commits: mined.commits,
    dependencyChanges: mined.dependencyChanges,
    options,
    minedAt: at,
    mineSeconds: seconds,
    problems: mined.problems,
    ...(previous?.stageOptions ? { stageOptions: previous.stageOptions } : {}),
  };
  const records = mergeMined(mined.candidates, out && previous ? await readRecords(out) : [], at, seconds);
  if (out && !values.dryRun) {
    // Records first: a manifest is the mark of a finished mining, a kill before it leaves none.
    await writeRecords(out, records);
    await writeManifest(out, manifest);
    process.stderr.write(`Mined ${mined.commits} commits in ${seconds} s: ${waitingLine(records.filter((r) => r.outcome === 'pending').length)}\n`);
    if (stage === 'all') return laterStages('all', out, repo.dir, manifest, values, parsed, format, signal);
  }
  const status = curationStatus(manifest, records);
  if (format === 'json') process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
  else {
    process.stdout.write(formatFunnel(manifest, status));
    process.stdout.write(candidateTable(status.candidates));
    process.stdout.write(`Mined ${mined.commits} commits in ${seconds} s.\n`);
    if (values.dryRun) process.stdout.write('Dry run: nothing written.\n');
    else
      process.stdout.write(`Wrote ${path.join(out as string, 'curation.jsonl')} (one line per candidate; sweci curate --status ${out} prints this again).\n`);
  }
  return 0;
}

interface LaterOptions {
  maxRepairs: number;
  minGap: number;
  top: number;
  split: string;
  workers: number;
}

/** The engine the env and filter stages use; refuses with the fix when none answers. */
async function engine(values: CurateValues, out: string, stage: string): Promise<DockerConnection> {
  const conn = connectDocker(values.socket ? { socketPath: values.socket } : {});
  try {
    await pingEngine(conn);
  } catch (err) {
    throw new UserError(
      `The ${stage} stage runs each candidate in Docker, and no engine answered. Start Docker (or give --socket), then run again: the mined candidates wait (sweci curate --status ${out}).`,
      { detail: err instanceof Error ? err.message : String(err), cause: err },
    );
  }
  return conn;
}

/** The stages after mining, on a mined curation: `all` runs each in turn on what waits for it. */
async function laterStages(
  stage: Stage | 'all',
  out: string,
  repoDir: string,
  manifest: CurationManifest,
  values: CurateValues,
  parsed: LaterOptions,
  format: 'text' | 'json',
  signal: AbortSignal,
): Promise<number> {
  const records = await readRecords(out);
  const progress = (m: string): void => void process.stderr.write(`${m}\n`);
  const runs = (s: Stage): boolean => stage === s || stage === 'all';
  // The filter sends a candidate whose oracle run in a shared image misses a module back to the
  // environment stage (collectIn 'env'): with both stages to run, they run once more for it.
  for (let round = 0; round < 2; round++) {
    if (runs('env')) {
      const waiting = records.filter((r) => r.stage === 'mine' && r.outcome === 'pending').length;
      if (waiting > 0) {
        const conn = await engine(values, out, 'env');
        // Set up before any build: a repair agent that cannot be confined is refused now, not after an hour of builds.
        const hide = [repoDir, out, ...(isCloneUrl(manifest.source) ? [] : [manifest.source])];
        const repairer = await repairAgentOf(values, hide);
        progress(`Environment stage: ${plural(waiting, 'candidate')}…`);
        const pip = {
          ...(values.indexUrl ? { indexUrl: values.indexUrl } : {}),
          ...(values.findLinks ? { findLinks: isCloneUrl(values.findLinks) ? values.findLinks : path.resolve(values.findLinks) } : {}),
        };
        await recordOptions(out, manifest, {
          env: {
            ...(values.baseImage ? { baseImage: values.baseImage } : {}),
            ...(pip.indexUrl ? { indexUrl: withoutPassword(pip.indexUrl) } : {}),
            ...(pip.findLinks ? { findLinks: withoutPassword(pip.findLinks) } : {}),
            maxRepairs: parsed.maxRepairs,
            workers: parsed.workers,
            ...(repairer ? { repairAgent: repairer.label, agentRepairs: repairer.tries } : {}),
          },
        });
        await runEnvStage(conn, out, repoDir, manifest, records, {
          ...(values.baseImage ? { baseImage: values.baseImage } : {}),
          ...pip,
          maxRepairs: parsed.maxRepairs,
          workers: parsed.workers,
          ...(repairer ? { agentRepair: repairer.hook } : {}),
          signal,
          onProgress: progress,
        });
      }
    }
    if (runs('filter')) {
      const waiting = records.filter((r) => r.stage === 'env' && r.outcome === 'pending').length;
      if (waiting > 0) {
        const conn = await engine(values, out, 'filter');
        progress(`Filter stage: ${plural(waiting, 'candidate')}…`);
        await recordOptions(out, manifest, { filter: { minGap: parsed.minGap, top: parsed.top, workers: parsed.workers } });
        await runFilterStage(conn, out, repoDir, records, { minGap: parsed.minGap, top: parsed.top, workers: parsed.workers, signal, onProgress: progress });
      } else {
        // Nothing to run: another --top still re-ranks what was filtered (with the --min-gap it was filtered with).
        const filtered = manifest.stageOptions?.filter;
        if (filtered && filtered.top !== parsed.top) await recordOptions(out, manifest, { filter: { ...filtered, top: parsed.top } });
        await rankCandidates(out, records, parsed.top);
      }
    }
    if (!(runs('env') && runs('filter') && records.some(sentBack))) break;
  }
  const back = records.filter(sentBack).length;
  if (back > 0 && !runs('env'))
    progress(`${plural(back, 'candidate')} went back to the environment stage, which collects their tests: run --stage env, then --stage filter.`);
  if (runs('pack')) {
    const waiting = records.filter((r) => r.stage === 'filter' && r.outcome === 'pending').length;
    if (waiting > 0 || records.some((r) => r.outcome === 'kept')) {
      const conn = await engine(values, out, 'pack');
      if (waiting > 0) progress(`Pack stage: ${plural(waiting, 'task')}…`);
      await recordOptions(out, manifest, { pack: { split: parsed.split } });
      await runPackStage(conn, out, repoDir, manifest, records, { split: parsed.split, signal, onProgress: progress });
      progress(`The dataset is ${out} (metadata/${parsed.split}.csv, data/<task_id>/code.zip and image.tar.gz).`);
    }
  }
  const status = curationStatus(manifest, records);
  process.stdout.write(format === 'json' ? `${JSON.stringify(status, null, 2)}\n` : formatFunnel(manifest, status));
  return 0;
}

/** The options a stage runs with, into curation.json before it starts (the record of how the dataset was made). */
async function recordOptions(out: string, manifest: CurationManifest, stage: NonNullable<CurationManifest['stageOptions']>): Promise<void> {
  manifest.stageOptions = { ...manifest.stageOptions, ...stage };
  await writeManifest(out, manifest);
}

/** The candidates that passed mining, one a line (all of them, dropped ones too, are in --format json). */
function candidateTable(candidates: CurationStatus['candidates']): string {
  const kept = candidates.filter((c) => c.outcome !== 'dropped');
  if (kept.length === 0) return 'No candidate passed mining.\n';
  const rows = kept.map((c) => [
    `${c.base.slice(0, 12)} → ${c.oracle.slice(0, 12)}`,
    String(c.commits),
    String(c.days),
    String(c.changedLines),
    String(c.sourceLines),
    c.outcome,
  ]);
  const header = ['base → oracle', 'commits', 'days', 'changed', 'source', 'outcome'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`.trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

async function statusOf(dir: string, format: 'text' | 'json'): Promise<number> {
  const out = path.resolve(dir);
  const manifest = await readManifest(out);
  if (!manifest) throw new UserError(`${out} holds no curation (no curation.json). Run sweci curate <repository> --out ${dir} first.`);
  const status = curationStatus(manifest, await readRecords(out));
  process.stdout.write(format === 'json' ? `${JSON.stringify(status, null, 2)}\n` : formatFunnel(manifest, status));
  return 0;
}

/** "1 candidate waits" / "3 candidates wait" for the next stage. */
function waitingLine(n: number): string {
  return `${plural(n, 'candidate')} ${n === 1 ? 'waits' : 'wait'} for the next stage.`;
}
