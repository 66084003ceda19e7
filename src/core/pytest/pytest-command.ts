// The reference harness's pytest command, plus the report option of the chosen format.
import * as path from 'node:path';

export type ReportFormat = 'json-report' | 'junit';

export interface PytestCommandOptions {
  /** Interpreter, e.g. `python3` or a venv's `bin/python` (as the runtime sees it). */
  python: string;
  /** The code folder, as the runtime sees it (`/app/code` in a container). */
  codeDir: string;
  /** Where pytest writes the report, as the runtime sees it. */
  reportFile: string;
  format: ReportFormat;
  /** PYTHONPATH separator of the machine pytest runs on; default this host's (':' for Linux containers). */
  pathDelimiter?: string;
}

export interface PytestCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export function buildPytestCommand(o: PytestCommandOptions): PytestCommand {
  const args = [
    '-m', 'pytest', 'tests',
    '--color=no', '--tb=short', '--disable-warnings', '-rfE',
    `--rootdir=${o.codeDir}`,
    // Not in the reference: without this pytest writes .pytest_cache into the code repo,
    // where it would show up in every iteration's diff and commit.
    '-p', 'no:cacheprovider',
  ];
  if (o.format === 'json-report') {
    args.push('--json-report', `--json-report-file=${o.reportFile}`);
  } else {
    // xunit1 carries `file` and `line` per testcase, which node ids are rebuilt from.
    args.push(`--junitxml=${o.reportFile}`, '-o', 'junit_family=xunit1');
  }
  const delimiter = o.pathDelimiter ?? path.delimiter;
  return {
    command: o.python,
    args,
    cwd: o.codeDir,
    env: {
      // Exactly the reference's value: an inherited PYTHONPATH is replaced, not extended.
      PYTHONPATH: `src${delimiter}.`,
      // Keeps __pycache__ folders out of the code repo, for the same reason as the cache.
      PYTHONDONTWRITEBYTECODE: '1',
    },
  };
}

/** A readable one-line rendering for logs (never executed through a shell). */
export function formatCommandLine(cmd: { command: string; args: readonly string[] }): string {
  return [cmd.command, ...cmd.args].map(quoteForDisplay).join(' ');
}

function quoteForDisplay(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
