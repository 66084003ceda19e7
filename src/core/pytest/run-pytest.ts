// Runs the target's tests on a code folder and reads the report. A run counts only when
// pytest finished normally (exit 0 or 1) and left a readable report, as in the reference;
// anything else is "did not run" (the iteration is recorded with gap −1), output kept. The
// report comes back on our plugin's stream (report-stream.ts), which the code under test cannot
// name or rewrite once pytest's session is over; pytest-json-report's file is checked against it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Confinement, Mount, Runtime } from '../runtime/runtime';
import type { TestReport } from './test-report';
import type { PytestFormat } from './pytest-settings';
import { buildPytestCommand, formatCommandLine, type PytestCommand, type ReportFormat } from './pytest-command';
import { hasJsonReport } from './detect-json-report';
import { copyReportPlugin } from './report-plugin';
import { readAgentFile } from '../util/agent-file';
import { emptyFolder } from '../util/discard';
import { ensureSeed, fillFromSeed, seedInterpreter, seedKey, seedMounts } from './bytecode-seed';
import { parseJsonReport } from './parse-json-report';
import { parseJunitXml } from './parse-junit';
import { ReportStreamReader } from './report-stream';
import { firstErrorLine } from './pytest-error-line';
import { networkNote } from './network-note';
import { judgeStream, type VerdictInput } from './stream-verdict';
import { writeFileAtomic } from '../util/fs-atomic';
import { isDockerUnavailable } from '../runtime/docker/docker-errors';
import type { RunResult } from '../runtime/runtime';

export type { PytestFormat } from './pytest-settings';

export interface RunPytestOptions {
  python: string;
  /** The code folder on this machine (a container sees it at /app/code). */
  codeDir: string;
  /**
   * Where the report goes on this machine. Its folder belongs to pytest runs alone: a container
   * sees that folder (and no other) next to the code.
   */
  reportFile: string;
  /** Default 3600 s, the reference's timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** 'auto' (default): pytest-json-report when the interpreter has it, else our own plugin. */
  format?: PytestFormat;
  /** PYTHONPATH separator where pytest runs (see buildPytestCommand). */
  pathDelimiter?: string;
  /** Variables the user adds to pytest's clean environment (sweci.pytest.env). */
  env?: Readonly<Record<string, string>>;
  /** What the code under test must not see, when the runtime can sandbox (see runtime/task-confinement.ts). */
  confine?: Confinement;
  /** Only these node ids (relative to the code folder) instead of `tests` (see buildPytestCommand). */
  nodeIds?: readonly string[];
  /** See buildPytestCommand. */
  continueOnCollectionErrors?: boolean;
  /**
   * A harness folder on the report folder's file system that the code under test cannot reach:
   * the last run's files (hundreds of bytecode files) are moved there and deleted in the background.
   */
  discardDir?: string;
  /**
   * A harness folder the code under test cannot reach, where the bytecode of pytest and the standard
   * library is kept between runs (bytecode-seed.ts; machineSeedStore() for this machine's). Without
   * it every run compiles them again.
   */
  bytecodeSeedDir?: string;
}

export type PytestRun =
  | {
      kind: 'ran';
      report: TestReport;
      exitCode: number;
      /** stdout followed by stderr. */
      output: string;
      reportFile: string;
      format: ReportFormat;
      /** The command line, for logs and records. */
      command: string;
      /** The exact command, arguments, cwd and added environment. */
      invocation: PytestCommand;
      durationMs: number;
      /**
       * Our report plugin's word on the code under test: its files that replaced pytest's own
       * functions or registered a plugin (report-plugin/sweci_pytest_report.py). Not for JUnit.
       */
      integrity?: string[];
      /** The report stream shows tampering, yet a report was scored (the stream's, never a forged file). */
      tampering?: string;
      /** The code had no network and its output shows it tried to reach one (network-note.ts). */
      networkNote?: string;
    }
  | {
      kind: 'did-not-run';
      /** One sentence for the user. */
      reason: string;
      exitCode: number | null;
      output: string;
      timedOut: boolean;
      cancelled: boolean;
      /** The Docker engine could not be reached or went away: nothing is wrong with the code. */
      engineFailure?: boolean;
      format: ReportFormat;
      /** The command line, for logs and records. */
      command: string;
      /** The exact command, arguments, cwd and added environment. */
      invocation: PytestCommand;
      durationMs: number;
      /** Nothing was scored because the report stream shows tampering (stream-verdict.ts). */
      tampering?: string;
      /** As for a run that ran; also at the end of `reason`. */
      networkNote?: string;
    };

export const DEFAULT_PYTEST_TIMEOUT_MS = 3600_000;

/**
 * A report past this is not one pytest wrote for a task's tests (the largest seen are a few MiB).
 * With report-shape.ts's limits it keeps reading one under 512 MiB of memory, whatever its shape.
 */
export const MAX_REPORT_BYTES = 64 * 2 ** 20;
/** Where pytest sees the code and its report folder in a container (the reference's /app layout). */
export const CONTAINER_CODE_DIR = '/app/code';
export const CONTAINER_REPORT_DIR = '/sweci/report';

/** What a pytest run needs to see: the code, and the folder its report goes to (which holds our plugin's copy). */
export function pytestMounts(codeDir: string, reportFile: string): Mount[] {
  return [
    { source: path.resolve(codeDir), target: CONTAINER_CODE_DIR },
    { source: path.resolve(path.dirname(reportFile)), target: CONTAINER_REPORT_DIR },
  ];
}

const EXIT_MEANING: Record<number, string> = {
  2: 'interrupted, e.g. by errors while collecting tests',
  3: 'internal error',
  4: 'command line usage error',
  5: 'no tests were collected',
};

/**
 * Throws only when the interpreter cannot be started at all (a clear message naming it):
 * that is a setup problem, not a result of the code under test.
 */
export async function runPytest(runtime: Runtime, o: RunPytestOptions): Promise<PytestRun> {
  // A report (or cache) left over from an earlier run must never pass for this run's. The
  // folder is emptied, not replaced: a container started ahead for it sees this same folder.
  const outDir = path.dirname(o.reportFile);
  const rel = path.relative(path.resolve(outDir), path.resolve(o.codeDir));
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
    // Emptying the report folder would delete the code: that is a caller's bug, said loudly.
    throw new Error(`The pytest report folder ${outDir} must not hold the code folder ${o.codeDir}: give the report a folder of its own.`);
  }
  await emptyFolder(outDir, o.discardDir);
  const cacheDir = path.join(outDir, 'pytest-cache');
  const pycacheDir = path.join(outDir, 'pycache');
  const mounts = pytestMounts(o.codeDir, o.reportFile);
  const codeDir = runtime.pathIn(mounts, o.codeDir);
  const started = Date.now();
  const wanted = o.format ?? 'auto';
  // The seed is made ready while the interpreter is asked about pytest-json-report: neither needs the other.
  const seeding = o.bytecodeSeedDir ? seedPrefix(runtime, o, o.bytecodeSeedDir, mounts, pycacheDir) : undefined;
  let format: ReportFormat;
  try {
    // `auto` prefers the reference's own plugin, then ours (same format); JUnit only when asked for.
    // The probe runs in the (just emptied) report folder, never in the code folder.
    format = wanted !== 'auto' ? wanted : (await hasJsonReport(runtime, o.python, runtime.pathIn(mounts, outDir), mounts)) ? 'json-report' : 'builtin';
  } catch (err) {
    await seeding?.catch(() => undefined);
    if (!isDockerUnavailable(err)) throw err;
    return engineGone(err, o, wanted === 'auto' ? 'builtin' : wanted, Date.now() - started);
  }
  // The probe saw the code and report folders only; the run sees the seed too.
  const runMounts = [...mounts, ...((await seeding) ?? [])];
  const invocation = buildPytestCommand({
    python: o.python,
    codeDir,
    reportFile: runtime.pathIn(mounts, o.reportFile),
    cacheDir: runtime.pathIn(mounts, cacheDir),
    pycachePrefix: runtime.pathIn(mounts, pycacheDir),
    extraEnv: o.env,
    format,
    ...(format !== 'junit' ? { reportPluginDir: runtime.pathIn(mounts, await copyReportPlugin(outDir)) } : {}),
    pathDelimiter: runtime.isolation === 'container' ? ':' : o.pathDelimiter,
    ...(o.nodeIds?.length ? { nodeIds: o.nodeIds } : {}),
    ...(o.continueOnCollectionErrors ? { continueOnCollectionErrors: true } : {}),
  });
  const timeoutMs = o.timeoutMs ?? DEFAULT_PYTEST_TIMEOUT_MS;
  const command = formatCommandLine(invocation);
  // Standard output is the plugin's report channel: read here, never shown as pytest's output.
  const stream = format !== 'junit' ? new ReportStreamReader() : undefined;
  const onOutput: RunPytestOptions['onOutput'] = stream ? (chunk, which) => (which === 'stdout' ? stream.push(chunk) : o.onOutput?.(chunk, which)) : o.onOutput;
  let result: RunResult;
  try {
    result = await runtime.run({
      command: invocation.command,
      args: invocation.args,
      cwd: invocation.cwd,
      env: invocation.env,
      // Only what the reference's run sees: nothing of this process's environment leaks in.
      cleanEnv: true,
      timeoutMs,
      signal: o.signal,
      onOutput,
      mounts: runMounts,
      ...(o.confine ? { confine: o.confine } : {}),
    });
  } catch (err) {
    // The engine went away: the code under test did nothing wrong, and nothing ran to the end.
    if (!isDockerUnavailable(err)) throw err;
    return engineGone(err, o, format, Date.now() - started, invocation);
  }
  const output = joinOutput(stream ? stream.preamble : result.stdout, result.stderr);
  const offline = networkNote(
    output,
    o.confine !== undefined && isConfined(runtime, o.confine) && offNetwork(o.confine),
    runtime.isolation === 'container' ? 'container' : 'local',
  );
  const base = { output, format, command, invocation, durationMs: result.durationMs, ...(offline ? { networkNote: offline } : {}) };
  const notRun = (reason: string, tampering?: string): PytestRun => ({
    kind: 'did-not-run',
    reason: offline ? `${reason} ${offline}` : reason,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    cancelled: result.cancelled,
    ...base,
    ...(tampering ? { tampering } : {}),
  });

  if (result.cancelled) return notRun('The pytest run was cancelled.');
  if (result.timedOut) return notRun(`pytest did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`);
  // A limit reached by pytest itself (not by a test it survived): the limit is why there is no result.
  if (result.limitReached && (result.exitCode === null || result.exitCode > 1)) {
    return notRun(
      `pytest stopped (${result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`}): ${result.limitReached}.`,
    );
  }
  if (result.exitCode === null) return notRun(`pytest was killed by ${result.signal ?? 'a signal'}.`);
  if (result.exitCode > 1) {
    const meaning = EXIT_MEANING[result.exitCode];
    const cause = firstErrorLine(output);
    // The reference's plugin asked for by name but not installed: say what to do about it.
    const hint =
      format === 'json-report' && /unrecognized arguments: .*--json-report/.test(output)
        ? ` pytest-json-report is not installed for ${o.python}: install it there, or set sweci.pytest.reportFormat to auto (SWE-CI's own plugin writes the same report).`
        : '';
    return notRun(`pytest exited with code ${result.exitCode}${meaning ? ` (${meaning})` : ''}${cause ? `: ${cause}` : ''}; see its output.${hint}`);
  }

  if (stream) {
    const file = format === 'json-report' ? await readReportFile(o, format, result.exitCode) : undefined;
    const streamed = stream.finish();
    const verdict = judgeStream(streamed, { exitCode: result.exitCode, output, ...(file ? { file } : {}) });
    if (verdict.kind === 'not-scored') return notRun(verdict.reason, verdict.tampering);
    // builtin: the streamed report kept where a file would have been, for people; never read back.
    if (format === 'builtin' && streamed.kind === 'ended') await writeFileAtomic(o.reportFile, streamed.reportText);
    const report = verdict.report;
    report.exitCode ??= result.exitCode;
    return {
      kind: 'ran',
      report,
      exitCode: result.exitCode,
      reportFile: o.reportFile,
      ...base,
      ...(verdict.integrity.length ? { integrity: verdict.integrity } : {}),
      ...(verdict.tampering ? { tampering: verdict.tampering } : {}),
    };
  }
  const read = await readReportFile(o, format, result.exitCode);
  if ('problem' in read) return notRun(read.problem);
  const report = read.report;
  report.exitCode ??= result.exitCode;
  return { kind: 'ran', report, exitCode: result.exitCode, reportFile: o.reportFile, ...base };
}

/**
 * The report file pytest-json-report or JUnit wrote. The code under test can write the report
 * folder: a link there (to the oracle's report, say) is never followed, and a report is sized and
 * its shape measured (report-shape.ts) before it is parsed.
 */
async function readReportFile(o: RunPytestOptions, format: ReportFormat, exitCode: number): Promise<NonNullable<VerdictInput['file']>> {
  const read = await readAgentFile(o.reportFile, MAX_REPORT_BYTES).catch(() => ({ kind: 'missing' }) as const);
  if (read.kind === 'missing') return { problem: `pytest exited with code ${exitCode} but wrote no report at ${o.reportFile}.` };
  if (read.kind === 'not-a-file') return { problem: `The pytest report at ${o.reportFile} is a link or not a regular file: it is not read.` };
  if (read.kind === 'too-large') {
    return {
      problem: `The pytest report at ${o.reportFile} has ${read.size} bytes, over the ${MAX_REPORT_BYTES / 2 ** 20} MiB a report may have: it is not read.`,
    };
  }
  const text = read.data.toString('utf8');
  try {
    return {
      report: format !== 'junit' ? parseJsonReport(text) : parseJunitXml(text, { exitCode, isTestFile: (rel) => fs.existsSync(path.join(o.codeDir, rel)) }),
    };
  } catch (err) {
    return { problem: `The pytest report at ${o.reportFile} could not be read: ${(err as Error).message}` };
  }
}

/** Whether a confined run has a network of its own (only `lo`): `none`, or an agent's gateway. */
const offNetwork = (confine: Confinement): boolean => (confine.network?.kind ?? 'open') !== 'open';

/** Whether the runtime holds a run with these options to its mounts (a container, or the sandbox asked to confine). */
function isConfined(runtime: Runtime, confine: Confinement | undefined): boolean {
  return runtime.isolation === 'container' || (runtime.isolation === 'sandbox' && confine !== undefined);
}

/**
 * Readies the run's fresh bytecode prefix from this machine's seed (bytecode-seed.ts): a confined
 * run gets the seed's folders as read-only mounts inside it (returned), an unconfined one a copy.
 * A seed that cannot be had only leaves the run compiling everything.
 */
async function seedPrefix(runtime: Runtime, o: RunPytestOptions, seeds: string, mounts: readonly Mount[], pycacheDir: string): Promise<Mount[]> {
  const key = seedKey(runtime.description, seedInterpreter(o.python, runtime.isolation !== 'container'));
  const build = (dir: string) => seedRun(runtime, o, dir);
  await fs.promises.mkdir(pycacheDir, { recursive: true });
  if (!isConfined(runtime, o.confine)) {
    await fillFromSeed(seeds, key, pycacheDir, build);
    return [];
  }
  // The code and report folders stay the run's to compile into; the rest of the seed is shown read-only.
  const writable = [runtime.pathIn(mounts, o.codeDir), runtime.pathIn(mounts, path.dirname(o.reportFile))];
  return seedMounts(seeds, key, pycacheDir, writable, (p) => runtime.pathIn(mounts, p), build);
}

/** What building a bytecode seed needs of a run's options. */
type SeedRunOptions = Pick<RunPytestOptions, 'python' | 'env' | 'confine' | 'signal'>;

/**
 * Builds the seed for this runtime and interpreter ahead of the run that needs it (a checkout starts
 * it while the task is materialised), so no pytest run waits for it. Nothing to do when it exists.
 */
export async function prepareBytecodeSeed(runtime: Runtime, o: SeedRunOptions & { bytecodeSeedDir: string }): Promise<void> {
  await ensureSeed(o.bytecodeSeedDir, seedKey(runtime.description, seedInterpreter(o.python, runtime.isolation !== 'container')), (dir) =>
    seedRun(runtime, o, dir),
  );
}

/**
 * The run that fills a bytecode seed (bytecode-seed.ts): pytest on an empty tests folder of the
 * seed's own, with SWE-CI's report plugin. No code of a task may run in it, or it could leave
 * bytecode every later run loads. Confined whenever the runtime can (a container, or the sandbox:
 * the run's own confinement, or one of its own for a run that is not confined), it sees only its
 * own folders, so the plugins the environment installs (hypothesis's, say) load and are seeded too,
 * and the seed is the same whichever run builds it. Unconfined, an editable install of the task's
 * project could be such a plugin and load the task's code, so none is loaded. Its outcome does not
 * matter; the bytecode prefix it filled does, and only if pytest started.
 */
async function seedRun(runtime: Runtime, o: SeedRunOptions, dir: string): Promise<string | undefined> {
  const codeDir = path.join(dir, 'code');
  await fs.promises.mkdir(path.join(codeDir, 'tests'), { recursive: true });
  // Most projects configure pytest in pyproject.toml: its reader (tomllib) is seeded too.
  await fs.promises.writeFile(path.join(codeDir, 'pyproject.toml'), '[tool.pytest.ini_options]\n');
  const confine = o.confine ?? (runtime.isolation === 'sandbox' ? { hide: [], network: { kind: 'none' as const } } : undefined);
  const confined = isConfined(runtime, confine);
  const run = await runPytest(runtime, {
    python: o.python,
    codeDir,
    reportFile: path.join(dir, 'out', 'report.json'),
    format: 'builtin',
    env: confined ? { ...o.env } : { ...o.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
    ...(confine ? { confine } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    timeoutMs: 120_000,
  });
  if (run.kind !== 'ran' && (run.exitCode === null || run.engineFailure)) return undefined;
  return path.join(dir, 'out', 'pycache');
}

/** The engine went away: the code under test did nothing wrong, and nothing ran to the end. */
function engineGone(err: Error, o: RunPytestOptions, format: ReportFormat, durationMs: number, invocation?: PytestCommand): PytestRun {
  const inv = invocation ?? { command: o.python, args: ['-m', 'pytest'], cwd: CONTAINER_CODE_DIR, env: {} };
  return {
    kind: 'did-not-run',
    reason: err.message,
    exitCode: null,
    engineFailure: true,
    output: '',
    timedOut: false,
    cancelled: o.signal?.aborted ?? false,
    format,
    command: formatCommandLine(inv),
    invocation: inv,
    durationMs,
  };
}

function joinOutput(stdout: string, stderr: string): string {
  if (!stderr) return stdout;
  if (!stdout) return stderr;
  return stdout.endsWith('\n') ? stdout + stderr : `${stdout}\n${stderr}`;
}
