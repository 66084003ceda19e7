import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutPassword } from '../../../src/core/util/url-password';

test("a URL's password is replaced, everything else kept", () => {
  assert.equal(withoutPassword('https://ci:s3cr3t@pypi.example.com/simple'), 'https://ci:***@pypi.example.com/simple');
  assert.equal(withoutPassword('https://__token__:pypi-AgEIc@host:8443/a/b/?x=1'), 'https://__token__:***@host:8443/a/b/?x=1');
  // A user without a password, a URL without either, a folder: unchanged.
  assert.equal(withoutPassword('https://ci@pypi.example.com/simple'), 'https://ci@pypi.example.com/simple');
  assert.equal(withoutPassword('http://127.0.0.1:3141/simple'), 'http://127.0.0.1:3141/simple');
  assert.equal(withoutPassword('/home/me/wheels'), '/home/me/wheels');
});
