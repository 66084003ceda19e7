import { ObservedRuntime } from '../helpers/observed-runtime';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { hasJsonReport } from '../../../src/core/pytest/detect-json-report';
import { PYTHON } from './python-project';

test('hasJsonReport asks the interpreter once and caches per interpreter', async () => {
  const rt = new ObservedRuntime();
  const probe = `import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("pytest_jsonreport") else 1)`;
  const expected = (await new LocalRuntime().run({ command: PYTHON, args: ['-c', probe], cwd: os.tmpdir() })).exitCode === 0;
  assert.equal(await hasJsonReport(rt, PYTHON, os.tmpdir()), expected);
  assert.equal(await hasJsonReport(rt, PYTHON, os.tmpdir()), expected);
  assert.equal(rt.requests.length, 1);
  assert.deepEqual(rt.requests[0].args, ['-c', 'import pytest_jsonreport']);
  const other = new ObservedRuntime();
  assert.equal(await hasJsonReport(other, PYTHON, os.tmpdir()), expected);
  assert.equal(other.requests.length, 1, 'another runtime asks its own interpreter');
  assert.equal(rt.requests.length, 1);
});

test('an interpreter that cannot start is an error, and is not cached', async () => {
  const rt = new ObservedRuntime();
  await assert.rejects(hasJsonReport(rt, 'sweci-no-such-python', os.tmpdir()), /"sweci-no-such-python".*PATH/);
  await assert.rejects(hasJsonReport(rt, 'sweci-no-such-python', os.tmpdir()));
  assert.equal(rt.requests.length, 2);
});
