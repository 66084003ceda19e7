// A --config key that a flag overrides is a known setting: `sweci run --config f --architect-command …`
// was refused as "settings SWE-CI does not know: sweci.architect.customCommand".
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cliSettings } from '../../../src/cli/cli-settings';
import { layered, readSettingsFile } from '../../../src/core/util/settings-file';

test('a file key a flag overrides counts as read; the flag wins', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-settings-file-'));
  const json = path.join(dir, 'f.json');
  fs.writeFileSync(json, JSON.stringify({ 'sweci.architect.customCommand': 'from-file', 'sweci.programmer.customCommand': 'p', 'sweci.typo': 1 }));
  const file = await readSettingsFile(json).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
  const s = cliSettings({ architectCommand: 'from-flag' }, { path: json, settings: file });
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
