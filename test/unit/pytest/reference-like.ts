// The check that pytest runs as the reference runs it, shared by run-pytest.test.ts (this
// machine) and run-pytest-docker.test.ts (the task image, in the unit tier's serial lane: it
// uses the shared engine's demo image, which the local runs do not need).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reportPluginDir } from '../../../src/core/pytest/report-plugin';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import type { Runtime } from '../../../src/core/runtime/runtime';
import { listTree, makeProject } from './python-project';

// What the reference's run sees and does: the cache provider on, bytecode on, none of this
// process's environment, and (our addition) nothing written into the code folder.
const REFERENCE_LIKE = {
  'pytest.ini': '[pytest]\naddopts = --lf\n',
  'tests/test_ref.py': [
    'import os, sys',
    '',
    'def test_cache_fixture(cache):',
    '    cache.set("sweci/k", 1)',
    '    assert cache.get("sweci/k", None) == 1',
    '',
    'def test_bytecode_is_on():',
    '    assert sys.dont_write_bytecode is False',
    '',
    'def test_plain():',
    '    assert True',
    '',
    'def test_user_env():',
    '    assert os.environ.get("SWECI_USER_VAR") == "yes"',
    '',
    'def test_no_host_variable():',
    '    assert "SWECI_HOST_ONLY" not in os.environ',
    '',
  ].join('\n'),
};

/** Variables of this process that pytest must not see. */
const hostVars = { PYTEST_ADDOPTS: '-k plain', PYTHONDONTWRITEBYTECODE: '1', SWECI_HOST_ONLY: 'leak' };

/** Two runs of REFERENCE_LIKE through `runtime`; the folders it makes are pushed on `made` (the caller removes them). */
export async function checkReferenceLike(runtime: Runtime, python: string, format: 'builtin' | 'junit', made: string[]): Promise<void> {
  const root = makeProject(REFERENCE_LIKE);
  made.push(root);
  const files = (dir: string) => listTree(dir).filter((p) => fs.statSync(path.join(dir, p)).isFile());
  const before = files(root);
  const reportFile = path.join(`${root}-out`, 'report.xml');
  made.push(path.dirname(reportFile));
  Object.assign(process.env, hostVars);
  let run;
  try {
    run = await runPytest(runtime, { python, codeDir: root, reportFile, format, env: { SWECI_USER_VAR: 'yes' } });
  } finally {
    for (const k of Object.keys(hostVars)) delete process.env[k];
  }
  assert.equal(run.format, format);
  assert.equal(run.kind, 'ran', run.kind === 'did-not-run' ? `${run.reason}\n${run.output}` : '');
  // Every test ran (PYTEST_ADDOPTS did not deselect, --lf did not fail) and passed.
  assert.equal(run.report.summary.passed, 5, run.output);
  assert.equal(run.report.summary.total ?? run.report.tests.length, 5);
  // (A plugin of the interpreter may make folders of its own, e.g. pytest-benchmark's empty
  // .benchmarks; git keeps no empty folder.)
  assert.deepEqual(files(root), before, 'no file was written into the code folder');
  assert.deepEqual(
    listTree(root).filter((p) => /(^|\/)(\.pytest_cache|__pycache__)(\/|$)/.test(p)),
    [],
    'no cache or bytecode in the code folder',
  );
  assert.ok(fs.existsSync(path.join(path.dirname(reportFile), 'pycache')), 'bytecode went beside the report');
  assert.ok(fs.existsSync(path.join(path.dirname(reportFile), 'pytest-cache')), 'the cache went beside the report');
  // A second run starts from a fresh cache, as the reference's fresh container does.
  const again = await runPytest(runtime, { python, codeDir: root, reportFile, format, env: { SWECI_USER_VAR: 'yes' } });
  assert.equal(again.kind === 'ran' && again.report.summary.passed, 5);
  // Our plugin's folder (the extension's own, or read-only in a container) is left as shipped.
  assert.deepEqual(fs.readdirSync(reportPluginDir()), ['sweci_pytest_report.py']);
}
