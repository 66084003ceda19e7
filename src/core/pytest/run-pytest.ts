// Runs the target's tests on a code folder and reads the report. A run counts only when
// pytest finished normally (exit 0 or 1) and left a readable report, as in the reference;
// anything else is "did not run" (the iteration is recorded with gap −1), output kept.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Runtime } from '../runtime/runtime';
import type { TestReport } from './test-report';
import { buildPytestCommand, formatCommandLine, type PytestCommand, type ReportFormat } from './pytest-command';
import { hasJsonReport } from './detect-json-report';
import { parseJsonReport } from './parse-json-report';
import { parseJunitXml } from './parse-junit';

export type PytestFormat = 'auto' | ReportFormat;

export interface RunPytestOptions {
  python: string;
  /** The code folder as the runtime sees it. */
  codeDir: string;
  /** Report path as the runtime sees it. */
  reportFile: string;
  /** The same report as this process can read it; defaults to `reportFile` (local runs). */
  hostReportFile?: string;
  /** The code folder as this process sees it, to resolve guessed JUnit file names; defaults to `codeDir`. */
  hostCodeDir?: string;
  /** Default 3600 s, the reference's timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** 'auto' (default): json-report when the plugin is importable, else JUnit XML. */
  format?: PytestFormat;
  /** PYTHONPATH separator where pytest runs (see buildPytestCommand). */
  pathDelimiter?: string;
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
    }
  | {
      kind: 'did-not-run';
      /** One sentence for the user. */
      reason: string;
      exitCode: number | null;
      output: string;
      timedOut: boolean;
      cancelled: boolean;
      format: ReportFormat;
      /** The command line, for logs and records. */
      command: string;
      /** The exact command, arguments, cwd and added environment. */
      invocation: PytestCommand;
      durationMs: number;
    };

export const DEFAULT_PYTEST_TIMEOUT_MS = 3600_000;

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
  const format = await resolveFormat(runtime, o);
  const invocation = buildPytestCommand({
    python: o.python,
    codeDir: o.codeDir,
    reportFile: o.reportFile,
    format,
    pathDelimiter: o.pathDelimiter,
  });
  const hostReport = o.hostReportFile ?? o.reportFile;
  // A report left over from an earlier run must never pass for this run's.
  await fs.promises.rm(hostReport, { force: true });
  await fs.promises.mkdir(path.dirname(hostReport), { recursive: true });

  const timeoutMs = o.timeoutMs ?? DEFAULT_PYTEST_TIMEOUT_MS;
  const result = await runtime.run({
    command: invocation.command,
    args: invocation.args,
    cwd: invocation.cwd,
    env: invocation.env,
    timeoutMs,
    signal: o.signal,
    onOutput: o.onOutput,
  });
  const output = joinOutput(result.stdout, result.stderr);
  const base = { output, format, command: formatCommandLine(invocation), invocation, durationMs: result.durationMs };
  const notRun = (reason: string): PytestRun => ({
    kind: 'did-not-run',
    reason,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    cancelled: result.cancelled,
    ...base,
  });

  if (result.cancelled) return notRun('The pytest run was cancelled.');
  if (result.timedOut) return notRun(`pytest did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`);
  if (result.exitCode === null) return notRun(`pytest was killed by ${result.signal ?? 'a signal'}.`);
  if (result.exitCode > 1) {
    const meaning = EXIT_MEANING[result.exitCode];
    return notRun(`pytest exited with code ${result.exitCode}${meaning ? ` (${meaning})` : ''}; see its output.`);
  }

  let text: string;
  try {
    text = await fs.promises.readFile(hostReport, 'utf8');
  } catch {
    return notRun(`pytest exited with code ${result.exitCode} but wrote no report at ${hostReport}.`);
  }
  const hostCode = o.hostCodeDir ?? o.codeDir;
  let report: TestReport;
  try {
    report =
      format === 'json-report'
        ? parseJsonReport(text)
        : parseJunitXml(text, {
            exitCode: result.exitCode,
            isTestFile: (rel) => fs.existsSync(path.join(hostCode, rel)),
          });
  } catch (err) {
    return notRun(`The pytest report at ${hostReport} could not be read: ${(err as Error).message}`);
  }
  report.exitCode ??= result.exitCode;
  return { kind: 'ran', report, exitCode: result.exitCode, reportFile: hostReport, ...base };
}

async function resolveFormat(runtime: Runtime, o: RunPytestOptions): Promise<ReportFormat> {
  const wanted = o.format ?? 'auto';
  if (wanted !== 'auto') return wanted;
  return (await hasJsonReport(runtime, o.python, o.codeDir)) ? 'json-report' : 'junit';
}

function joinOutput(stdout: string, stderr: string): string {
  if (!stderr) return stdout;
  if (!stdout) return stderr;
  return stdout.endsWith('\n') ? stdout + stderr : `${stdout}\n${stderr}`;
}
