// The reference harness's pytest command, plus the report option of the chosen format.
import * as path from 'node:path';
import { z } from 'zod';
import { REPORT_PLUGIN_MODULE } from './report-plugin';

/**
 * Who writes the report: pytest-json-report (the reference's plugin, when installed), our own
 * plugin writing the same format (`builtin`), or pytest's JUnit XML (lossy, explicit only).
 */
export const reportFormatSchema = z.enum(['json-report', 'builtin', 'junit']);
export type ReportFormat = z.infer<typeof reportFormatSchema>;

export interface PytestCommandOptions {
  /** Interpreter, e.g. `python3` or a venv's `bin/python` (as the runtime sees it). */
  python: string;
  /** The code folder, as the runtime sees it (`/app/code` in a container). */
  codeDir: string;
  /**
   * Where pytest-json-report or JUnit writes its file, as the runtime sees it. `builtin` writes no
   * file: its report comes back on the plugin's private stream (report-stream.ts).
   */
  reportFile: string;
  format: ReportFormat;
  /**
   * The folder holding our report plugin, as the runtime sees it: needed for `builtin`; with
   * `json-report` our plugin streams the same report beside the file, to be checked against it.
   */
  reportPluginDir?: string;
  /**
   * Folders outside the code (as the runtime sees them) for pytest's cache and for bytecode.
   * Both stay on, as in the reference (switching them off changes outcomes: the `cache`
   * fixture, `--lf` in addopts, `sys.dont_write_bytecode`); they only move out of the code, so
   * nothing lands in app/code. Without them the command writes both into the code folder.
   */
  cacheDir?: string;
  pycachePrefix?: string;
  /** PYTHONPATH separator of the machine pytest runs on; default this host's (':' for Linux containers). */
  pathDelimiter?: string;
  /**
   * Variables the user adds (sweci.pytest.env). A PYTHONPATH among them is appended to the
   * reference's `src:.`, so the project's own modules still come first.
   */
  extraEnv?: Readonly<Record<string, string>>;
  /**
   * Not in the reference: node ids to run instead of the whole `tests` folder (Test Explorer's
   * partial runs). Empty or absent: `tests`, as the reference.
   */
  nodeIds?: readonly string[];
  /**
   * Not in the reference: run the tests of the modules that import even when others do not
   * (SWE-bench-style instances, whose new tests often import what the base lacks).
   */
  continueOnCollectionErrors?: boolean;
}

export interface PytestCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

export function buildPytestCommand(o: PytestCommandOptions): PytestCommand {
  const args = [
    '-m',
    'pytest',
    ...(o.nodeIds?.length ? o.nodeIds : ['tests']),
    '--color=no',
    '--tb=short',
    '--disable-warnings',
    '-rfE',
    `--rootdir=${o.codeDir}`,
    ...(o.continueOnCollectionErrors ? ['--continue-on-collection-errors'] : []),
    // Not in the reference: the cache goes outside the code repository, which would otherwise
    // show .pytest_cache in every iteration's diff and commit.
    ...(o.cacheDir ? ['-o', `cache_dir=${o.cacheDir}`] : []),
  ];
  const delimiter = o.pathDelimiter ?? path.delimiter;
  // The reference's value: an inherited PYTHONPATH is replaced, not extended. One the user set
  // (sweci.pytest.env, --env) is not dropped silently: it comes after the reference's entries.
  const { PYTHONPATH: userPythonPath, ...userEnv } = o.extraEnv ?? {};
  let pythonPath = `src${delimiter}.`;
  if (userPythonPath?.trim()) pythonPath += `${delimiter}${userPythonPath.trim()}`;
  // Not in the reference: our plugin streams the report on pytest's original standard output. No
  // path of a report the harness reads is on the command line, where the code under test could
  // find it. -p needs the plugin importable: its folder comes last, so the project's own modules
  // always win over it.
  const stream = (): void => {
    args.push('-p', REPORT_PLUGIN_MODULE, '--sweci-stream');
    pythonPath += `${delimiter}${o.reportPluginDir}`;
  };
  if (o.format === 'json-report') {
    args.push('--json-report', `--json-report-file=${o.reportFile}`);
    if (o.reportPluginDir) stream();
  } else if (o.format === 'builtin') {
    if (!o.reportPluginDir) throw new Error('The builtin report format needs the report plugin folder.');
    stream();
  } else {
    // xunit1 carries `file` and `line` per testcase, which node ids are rebuilt from.
    args.push(`--junitxml=${o.reportFile}`, '-o', 'junit_family=xunit1');
  }
  return {
    command: o.python,
    args,
    cwd: o.codeDir,
    env: {
      ...userEnv,
      PYTHONPATH: pythonPath,
      // Bytecode is still written (as in the reference), but not into the code repository.
      ...(o.pycachePrefix ? { PYTHONPYCACHEPREFIX: o.pycachePrefix } : {}),
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
