// A --config key that a flag overrides is a known setting: `sweci run --config f --architect-command …`
// was refused as "settings SWE-CI does not know: sweci.architect.customCommand".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cliSettings } from '../../../src/cli/cli-settings';
import { layered, settingsFromObject } from '../../../src/core/util/settings-file';

test('a file key a flag overrides counts as read; the flag wins', () => {
  const file = settingsFromObject({ 'sweci.architect.customCommand': 'from-file', 'sweci.programmer.customCommand': 'p', 'sweci.typo': 1 }, 'f.json');
  const s = cliSettings({ architectCommand: 'from-flag' }, { path: 'f.json', settings: file });
  assert.equal(s.read('architect.customCommand'), 'from-flag');
  assert.equal(s.label('architect.customCommand'), '--architect-command');
  assert.equal(s.read('programmer.customCommand'), 'p');
  assert.deepEqual(file.unread(), ['typo']);
});

test('layered: the first reader that has the key, every reader asked', () => {
  const asked: string[] = [];
  const reader = (name: string, value?: unknown) => (key: string) => (asked.push(`${name}:${key}`), value);
  assert.equal(layered(reader('a'), reader('b', 2), reader('c', 3))('k'), 2);
  assert.deepEqual(asked, ['a:k', 'b:k', 'c:k']);
  assert.equal(layered(reader('d'))('k'), undefined);
});
