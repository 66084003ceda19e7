// The suite's Python: scripts/setup.sh makes /opt/sweci-test-python (scripts/test-python.py), this
// machine's interpreter with pytest and what pytest requires, and no other package. The test
// runners put its bin first on PATH, so `python3` in every local pytest run of the suite is that
// one: plugins the machine's Python happens to carry (hypothesis's and pytest-benchmark's here,
// about one CPU-second per pytest start) neither slow the suite nor change what it sees. A
// machine without it runs the suite with its own python3, as before.
import { existsSync } from 'node:fs';
import { executablesOnPath } from '../../src/core/util/trusted-program';
import * as path from 'node:path';

export const TEST_PYTHON_DIR = '/opt/sweci-test-python';
const TEST_PYTHON_BIN = path.join(TEST_PYTHON_DIR, 'bin');

/** `env`'s PATH entries without the suite's Python (and without empty ones). */
function pathWithoutTestPython(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(path.delimiter).filter((p) => p !== '' && p !== TEST_PYTHON_BIN);
}

/** Puts the suite's Python first on `env`'s PATH when setup made it; whether it did. */
export function useTestPython(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!existsSync(path.join(TEST_PYTHON_BIN, 'python3'))) return false;
  env.PATH = [TEST_PYTHON_BIN, ...pathWithoutTestPython(env)].join(path.delimiter);
  return true;
}

/**
 * The machine's own python3, plugins and all: the first on PATH past the suite's. For what was
 * recorded with it (the report-parity references list the fixtures of every plugin it loads).
 */
export function machinePython(env: NodeJS.ProcessEnv = process.env): string {
  return executablesOnPath('python3', pathWithoutTestPython(env).join(path.delimiter))[0] ?? 'python3';
}
