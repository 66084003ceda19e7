// The one parser of how pytest runs (sweci.python, sweci.pytest.*), for the extension's settings
// and the CLI's options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPytestSettings } from '../../../src/core/pytest/pytest-settings';
import { UserError } from '../../../src/core/util/errors';

const from = (values: Record<string, unknown>) => readPytestSettings((key) => values[key]);

test('nothing set gives the defaults: python3, the reference timeout, auto, no network', () => {
  assert.deepEqual(from({}), { python: 'python3', timeoutMs: 3_600_000, format: 'auto', env: {}, network: 'none' });
});

test('values are read and converted (the CLI passes text)', () => {
  const s = from({
    python: ' /venv/bin/python ',
    'pytest.timeoutSeconds': '90',
    'pytest.reportFormat': 'builtin',
    'pytest.env': { A: '1', B: '' },
    'pytest.network': 'host',
  });
  assert.deepEqual(s, { python: '/venv/bin/python', timeoutMs: 90_000, format: 'builtin', env: { A: '1', B: '' }, network: 'host' });
  for (const format of ['auto', 'json-report', 'builtin', 'junit']) assert.equal(from({ 'pytest.reportFormat': format }).format, format);
});

test('bad values name the setting, or the option the caller calls it; nothing is silently dropped', () => {
  assert.throws(
    () => from({ 'pytest.reportFormat': 'xml' }),
    (e: unknown) =>
      e instanceof UserError && /The setting sweci\.pytest\.reportFormat must be one of auto, json-report, builtin, junit, not "xml"/.test(e.message),
  );
  assert.throws(() => from({ 'pytest.timeoutSeconds': 0 }), /sweci\.pytest\.timeoutSeconds must be a number of seconds, at least 1, not 0/);
  assert.throws(() => from({ 'pytest.env': { PORT: 8000 } }), /sweci\.pytest\.env: the value of PORT must be text, not 8000/);
  assert.throws(() => from({ 'pytest.env': ['A=1'] }), /sweci\.pytest\.env must be an object/);
  assert.throws(() => from({ 'pytest.network': 'open' }), /sweci\.pytest\.network must be one of none, host, not "open"/);
  assert.throws(
    () =>
      readPytestSettings(
        (k) => (k === 'pytest.network' ? 'bridge' : undefined),
        (k) => (k === 'pytest.network' ? '--pytest-network' : k),
      ),
    /--pytest-network must be one of none, host/,
  );
  assert.throws(
    () =>
      readPytestSettings(
        (k) => (k === 'pytest.timeoutSeconds' ? 'soon' : undefined),
        (k) => (k === 'pytest.timeoutSeconds' ? '--timeout' : k),
      ),
    /--timeout must be a number of seconds/,
  );
});
