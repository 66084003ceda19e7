// package.json's settings: grouped into titled, ordered categories, every setting described,
// every choice explained, and every key the CLI's flags set still there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FLAG_KEYS } from '../../../src/cli/cli-settings';
import { contributedSettings, settingsCategories } from './contributed-settings';

test('settings come in categories, each with an id, a title and a distinct order', () => {
  const categories = settingsCategories();
  assert.ok(categories.length > 1, 'more than one flat list');
  const orders = new Set<number>();
  const ids = new Set<string>();
  for (const c of categories) {
    assert.ok(c.title && c.title.trim(), `category ${c.id} has a title`);
    assert.ok(c.id && !ids.has(c.id), `category ${c.title} has its own id`);
    ids.add(c.id);
    assert.equal(typeof c.order, 'number', `${c.title} has an order`);
    assert.ok(!orders.has(c.order!), `${c.title}'s order is its own`);
    orders.add(c.order!);
    assert.ok(Object.keys(c.properties ?? {}).length > 0, `${c.title} holds settings`);
  }
  const titles = categories.map((c) => c.title);
  for (const wanted of ['Python & pytest', 'Agents', 'Loop', 'History']) assert.ok(titles.includes(wanted), `a ${wanted} category: ${titles.join(', ')}`);
  assert.ok(
    titles.some((t) => /Docker/.test(t!)),
    'a Docker category',
  );
});

test('no key is contributed twice', () => {
  const all = settingsCategories().flatMap((c) => Object.keys(c.properties ?? {}));
  assert.equal(new Set(all).size, all.length);
});

test('every setting has a description and an order within its category', () => {
  for (const c of settingsCategories()) {
    for (const [key, schema] of Object.entries(c.properties ?? {})) {
      const text = schema.markdownDescription ?? schema.description;
      assert.ok(typeof text === 'string' && text.trim().length > 10, `${key} is described`);
      assert.equal(typeof schema.order, 'number', `${key} has an order`);
    }
  }
});

test('every choice has a description, one per value', () => {
  for (const [key, schema] of contributedSettings()) {
    if (!schema.enum) continue;
    const descriptions = schema.markdownEnumDescriptions ?? schema.enumDescriptions;
    assert.ok(Array.isArray(descriptions), `${key} describes its values`);
    assert.equal(descriptions.length, schema.enum.length, `${key}: one description per value`);
    for (const d of descriptions) assert.ok(typeof d === 'string' && d.trim(), `${key}: no empty description`);
  }
});

test("every key the CLI's flags set is a contributed setting", () => {
  const keys = contributedSettings();
  for (const key of Object.keys(FLAG_KEYS)) assert.ok(keys.has(`sweci.${key}`), `sweci.${key} (${FLAG_KEYS[key]})`);
});

test("the Settings editor shows no 'Sweci ›' before each setting: the publisher is the keys' prefix", async () => {
  // VS Code drops a setting's category prefix when it starts with a part of the extension's id
  // (publisher.name); with the publisher "sweci", `sweci.pytest.env` reads "Pytest: Env".
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(require.resolve('../../../../package.json'), 'utf8')) as { publisher: string };
  for (const key of Object.keys(contributedSettings())) assert.equal(key.split('.')[0], pkg.publisher, key);
});
