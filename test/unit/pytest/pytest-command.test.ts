import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPytestCommand, formatCommandLine } from '../../../src/core/pytest/pytest-command';

test('json-report: the reference command plus -p no:cacheprovider', () => {
  const c = buildPytestCommand({ python: 'python', codeDir: '/app/code', reportFile: '/tmp/test_report.json', format: 'json-report', pathDelimiter: ':' });
  assert.equal(c.command, 'python');
  assert.deepEqual(c.args, [
    '-m', 'pytest', 'tests', '--color=no', '--tb=short', '--disable-warnings', '-rfE', '--rootdir=/app/code',
    '-p', 'no:cacheprovider',
    '--json-report', '--json-report-file=/tmp/test_report.json',
  ]);
  assert.equal(c.cwd, '/app/code');
  assert.deepEqual(c.env, { PYTHONPATH: 'src:.', PYTHONDONTWRITEBYTECODE: '1' });
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
