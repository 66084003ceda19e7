import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readModelAccess } from '../../../src/core/agents/model-access';
import { UserError } from '../../../src/core/util/errors';

const from = (values: Record<string, unknown>) => readModelAccess((k) => values[k]);

test("an agent's network (sweci.agents.network): model-only by default, open when asked, anything else refused with the flag's name", () => {
  assert.equal(from({}).network, 'model-only');
  assert.equal(from({ 'agents.network': 'open' }).network, 'open');
  assert.throws(
    () =>
      readModelAccess(
        (k) => (k === 'agents.network' ? 'none' : undefined),
        (k) => (k === 'agents.network' ? '--agents-network' : k),
      ),
    (e: unknown) => e instanceof UserError && /--agents-network must be one of model-only, open, not "none"/.test(e.message),
  );
});

test('the gateway bounds: calls per try and tokens per step, with their defaults; prices read once', () => {
  assert.equal(from({}).maxCallsPerTry, 1000);
  assert.equal(from({}).maxTokensPerStep, 0);
  assert.equal(from({ 'agents.maxCallsPerTry': 20, 'agents.maxTokensPerStep': 5000 }).maxCallsPerTry, 20);
  assert.equal(from({ 'agents.maxTokensPerStep': 5000 }).maxTokensPerStep, 5000);
  assert.throws(() => from({ 'agents.maxCallsPerTry': -1 }), /sweci\.agents\.maxCallsPerTry/);
  assert.deepEqual(from({ 'agents.prices': { m: { input: 1, output: 2 } } }).prices, { m: { input: 1, cached: 1, output: 2 } });
});

test("the calls record's bounds: 256 MiB per try (and per step), a floor of 64 MB free; bad values refused with the setting's name", () => {
  assert.equal(from({}).maxCallsBytesPerTry, 256 * 1024 * 1024);
  assert.equal(from({}).minFreeDiskBytes, 64 * 1024 * 1024);
  assert.equal(from({ 'agents.maxCallsBytesPerTry': '1000000' }).maxCallsBytesPerTry, 1_000_000);
  assert.equal(from({ 'agents.maxCallsBytesPerTry': 0 }).maxCallsBytesPerTry, 0);
  assert.equal(from({ 'agents.minFreeDiskMb': 1.5 }).minFreeDiskBytes, 1.5 * 1024 * 1024);
  assert.throws(() => from({ 'agents.maxCallsBytesPerTry': 'lots' }), /sweci\.agents\.maxCallsBytesPerTry must be a number of bytes/);
  assert.throws(() => from({ 'agents.minFreeDiskMb': -1 }), /sweci\.agents\.minFreeDiskMb must be a number of MB/);
});
