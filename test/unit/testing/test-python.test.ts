// The suite's Python (test/harness/test-python.ts, made by scripts/setup.sh): first on PATH for
// the test runners, the machine's interpreter and pytest, and no pytest plugin of its own.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { TEST_PYTHON_DIR, useTestPython } from '../../harness/test-python';

const run = (env: NodeJS.ProcessEnv, args: string[]) => execFileSync('python3', args, { env, encoding: 'utf8' }).trim();

test('setup made the suite Python: python3 on the runners PATH is it, with the machine pytest and no plugin that loads itself', () => {
  const bin = path.join(TEST_PYTHON_DIR, 'bin');
  const machine = {
    ...process.env,
    PATH: (process.env.PATH ?? '')
      .split(path.delimiter)
      .filter((p) => p !== bin)
      .join(path.delimiter),
  };
  const suite = { ...machine };
  assert.ok(useTestPython(suite), `${TEST_PYTHON_DIR} is missing: run bash scripts/setup.sh`);
  assert.equal(suite.PATH.split(path.delimiter)[0], bin);
  // Put first once, however often it is asked.
  useTestPython(suite);
  assert.equal(suite.PATH.split(path.delimiter).filter((p) => p === bin).length, 1);

  assert.equal(run(suite, ['-c', 'import sys; print(sys.prefix)']), TEST_PYTHON_DIR);
  const plugins = run(suite, ['-c', "import importlib.metadata as m, json; print(json.dumps(sorted(e.name for e in m.entry_points(group='pytest11'))))"]);
  assert.deepEqual(JSON.parse(plugins), [], 'no pytest plugin is installed in the suite Python');
  // The same interpreter and pytest as the machine's python3.
  const version = ['-c', 'import sys, pytest; print(sys.version, pytest.__version__)'];
  assert.equal(run(suite, version), run(machine, version));
});

test("the suite Python's modules load from the bytecode setup wrote, whatever PYTHONDONTWRITEBYTECODE says (no pytest start compiles pytest)", () => {
  const suite = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  assert.ok(useTestPython(suite), `${TEST_PYTHON_DIR} is missing: run bash scripts/setup.sh`);
  // -v names each module's code object: a .pyc read, or a source compiled on the spot.
  const r = spawnSync('python3', ['-v', '-c', 'import pytest'], { env: suite, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const loaded = r.stderr.split('\n').filter((l) => l.startsWith('# code object from ') && l.includes(TEST_PYTHON_DIR));
  assert.ok(loaded.length > 20, `pytest's modules are named in python3 -v's output:\n${r.stderr.slice(-2000)}`);
  const compiled = loaded.filter((l) => !/\.pyc'?$/.test(l));
  assert.deepEqual(compiled, [], 'compiled from source at every start: run bash scripts/setup.sh (scripts/test-python.py compiles them once)');
});
