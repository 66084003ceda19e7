// Secrets out of logs: whole-text and chunked redaction.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REDACTED, Redactor, StreamRedactor } from '../../../src/core/agents/redact';

describe('Redactor', () => {
  test('hides every value of 6+ characters, longest first; short values are left alone', () => {
    const r = new Redactor(['abcdef', 'abcdefgh', '1', 'true']);
    assert.equal(r.redact('x abcdefgh y abcdef z 1 true'), `x ${REDACTED} y ${REDACTED} z 1 true`);
    assert.equal(new Redactor([]).redact('anything'), 'anything');
  });
});

describe('StreamRedactor', () => {
  const run = (secrets: string[], chunks: string[]): string => {
    let out = '';
    const s = new StreamRedactor(new Redactor(secrets), (t) => (out += t));
    for (const c of chunks) s.push(c);
    s.flush();
    return out;
  };

  test('a secret split at every possible point is hidden', () => {
    const secret = 'sk-0123456789';
    const text = `before ${secret} after ${secret}`;
    for (let i = 1; i < text.length; i++) {
      for (let j = i + 1; j <= text.length; j++) {
        const out = run([secret], [text.slice(0, i), text.slice(i, j), text.slice(j)]);
        assert.equal(out, `before ${REDACTED} after ${REDACTED}`, `cut at ${i},${j}`);
      }
    }
  });

  test('one character at a time; nothing lost without secrets', () => {
    assert.equal(run(['secret-value'], [...'a secret-value b']), `a ${REDACTED} b`);
    assert.equal(run([], ['a', 'b', 'c']), 'abc');
  });
});
