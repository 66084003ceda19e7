import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPytestCommand, formatCommandLine } from '../../../src/core/pytest/pytest-command';

test('json-report: the reference command; the cache and bytecode go outside the code, still on', () => {
  const c = buildPytestCommand({
    python: 'python',
    codeDir: '/app/code',
    reportFile: '/sweci/report/r.json',
    format: 'json-report',
    pathDelimiter: ':',
    cacheDir: '/sweci/report/pytest-cache',
    pycachePrefix: '/sweci/report/pycache',
  });
  assert.equal(c.command, 'python');
  assert.deepEqual(c.args, [
    '-m',
    'pytest',
    'tests',
    '--color=no',
    '--tb=short',
    '--disable-warnings',
    '-rfE',
    '--rootdir=/app/code',
    '-o',
    'cache_dir=/sweci/report/pytest-cache',
    '--json-report',
    '--json-report-file=/sweci/report/r.json',
  ]);
  assert.ok(!c.args.includes('no:cacheprovider'), 'the cache provider stays on, as in the reference');
  assert.equal(c.cwd, '/app/code');
  assert.deepEqual(c.env, { PYTHONPATH: 'src:.', PYTHONPYCACHEPREFIX: '/sweci/report/pycache' });
  assert.ok(!('PYTHONDONTWRITEBYTECODE' in c.env), 'bytecode stays on, as in the reference');
});

test("the user's variables are added; a PYTHONPATH of theirs comes after the reference's src:.", () => {
  const c = buildPytestCommand({
    python: 'python',
    codeDir: '/c',
    reportFile: '/r/x.xml',
    format: 'junit',
    pathDelimiter: ':',
    extraEnv: { DJANGO_SETTINGS_MODULE: 's', PYTHONPATH: 'mine' },
  });
  assert.deepEqual(c.env, { DJANGO_SETTINGS_MODULE: 's', PYTHONPATH: 'src:.:mine' });
});

test('builtin: our plugin by -p, streaming its report (no report path on the command line), importable from its folder placed after the reference PYTHONPATH', () => {
  const c = buildPytestCommand({
    python: 'python',
    codeDir: '/app/code',
    reportFile: '/sweci/report/r',
    format: 'builtin',
    reportPluginDir: '/sweci/report/report-plugin',
    pathDelimiter: ':',
    extraEnv: { PYTHONPATH: 'mine' },
  });
  assert.deepEqual(c.args.slice(8), ['-p', 'sweci_pytest_report', '--sweci-stream']);
  assert.ok(!c.args.some((a) => a.includes('/sweci/report/r')), 'the code under test finds no report path in argv');
  assert.equal(c.env.PYTHONPATH, 'src:.:mine:/sweci/report/report-plugin', "the project's modules come first, then the user's, then the plugin");
  assert.ok(!c.args.includes('--json-report'));
  assert.throws(() => buildPytestCommand({ python: 'python', codeDir: '/c', reportFile: '/r', format: 'builtin' }), /needs the report plugin folder/);
});

test('json-report with the plugin folder: the reference command, plus our plugin streaming the same report to check the file against', () => {
  const c = buildPytestCommand({
    python: 'python',
    codeDir: '/app/code',
    reportFile: '/sweci/report/r.json',
    format: 'json-report',
    reportPluginDir: '/sweci/report/report-plugin',
    pathDelimiter: ':',
  });
  assert.deepEqual(c.args.slice(8), ['--json-report', '--json-report-file=/sweci/report/r.json', '-p', 'sweci_pytest_report', '--sweci-stream']);
  assert.equal(c.env.PYTHONPATH, 'src:.:/sweci/report/report-plugin');
});

test('junit: xunit1 family so testcases carry file and line', () => {
  const c = buildPytestCommand({ python: '/venv/bin/python', codeDir: '/w/code', reportFile: '/w/r.xml', format: 'junit', pathDelimiter: ';' });
  assert.deepEqual(c.args.slice(-3), ['--junitxml=/w/r.xml', '-o', 'junit_family=xunit1']);
  assert.ok(!c.args.includes('--json-report'));
  assert.equal(c.env.PYTHONPATH, 'src;.');
});

test('paths with spaces stay single arguments; display quoting is only for logs', () => {
  const c = buildPytestCommand({ python: 'python3', codeDir: '/a b/code', reportFile: "/a b/it's.xml", format: 'junit', pathDelimiter: ':' });
  assert.ok(c.args.includes('--rootdir=/a b/code'));
  assert.equal(formatCommandLine({ command: 'python3', args: ['-m', 'pytest', '--rootdir=/a b', "it's"] }), `python3 -m pytest '--rootdir=/a b' 'it'\\''s'`);
});
