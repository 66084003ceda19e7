import assert from 'node:assert/strict';
import { test } from 'node:test';
import { costOf, readModelPrices } from '../../../src/core/gateway/prices';
import { settingName } from '../../../src/core/util/setting-reader';

const read = (value: unknown) => (key: string) => (key === 'agents.prices' ? value : undefined);

test('a priced model costs its input (less the cached part), cached input and output at their prices per million', () => {
  const prices = readModelPrices(read({ m: { input: 3, cached: 0.3, output: 15 } }), settingName);
  // 1M read of which 400k from cache, 100k written: 0.6M × $3 + 0.4M × $0.3 + 0.1M × $15.
  assert.equal(costOf(prices, 'm', { input: 1_000_000, cached: 400_000, output: 100_000, reasoning: 0 })?.toFixed(6), (1.8 + 0.12 + 1.5).toFixed(6));
});

test('cached input defaults to the input price; a model without a price, or none named, costs unknown', () => {
  const prices = readModelPrices(read({ m: { input: 2, output: 8 } }), settingName);
  assert.equal(costOf(prices, 'm', { input: 500_000, cached: 500_000, output: 0, reasoning: 0 }), 1);
  assert.equal(costOf(prices, 'other', { input: 1, cached: 0, output: 1, reasoning: 0 }), undefined);
  assert.equal(costOf(prices, undefined, { input: 1, cached: 0, output: 1, reasoning: 0 }), undefined);
  assert.equal(costOf(prices, 'constructor', { input: 1, cached: 0, output: 1, reasoning: 0 }), undefined, 'a name of Object.prototype is no price');
});

test('bad prices are refused with the setting and what to write', () => {
  assert.throws(() => readModelPrices(read([1]), settingName), /sweci\.agents\.prices must map model names/);
  assert.throws(() => readModelPrices(read({ m: { input: -1, output: 1 } }), settingName), /"m"\.input must be a number of dollars per million tokens/);
  assert.throws(() => readModelPrices(read({ m: { input: 1 } }), settingName), /"m"\.output must be a number/);
  assert.throws(() => readModelPrices(read({ m: { input: 1, output: 1, cache: 1 } }), settingName), /has "cache"; the fields are input, cached, output/);
  assert.deepEqual(readModelPrices(read(undefined), settingName), {});
});
