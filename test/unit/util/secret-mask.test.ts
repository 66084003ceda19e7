// The one masking: known values (raw and as JSON escapes them), whole-text and chunked, and the
// secrets a setting holds written the usual ways.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MASK, SecretMask, StreamMask, secretsInSetting } from '../../../src/core/util/secret-mask';

describe('SecretMask', () => {
  test('masks every value of 6+ characters, longest first; short values are left alone', () => {
    const r = new SecretMask(['abcdef', 'abcdefgh', '1', 'true', undefined]);
    assert.equal(r.mask('x abcdefgh y abcdef z 1 true'), `x ${MASK} y ${MASK} z 1 true`);
    assert.equal(new SecretMask([]).mask('anything'), 'anything');
    assert.ok(r.holds('..abcdef..') && !r.holds('abcde'));
  });

  test('a value as JSON text escapes it is masked too', () => {
    const r = new SecretMask(['key"with\\odd']);
    assert.equal(r.mask(JSON.stringify({ k: 'key"with\\odd' })), `{"k":"${MASK}"}`);
  });
});

describe('StreamMask', () => {
  const run = (secrets: string[], chunks: string[]): string => {
    let out = '';
    const s = new StreamMask(new SecretMask(secrets), (t) => (out += t));
    for (const c of chunks) s.push(c);
    s.flush();
    return out;
  };

  test('a secret split at every possible point is masked', () => {
    const secret = 'sk-0123456789';
    const text = `before ${secret} after ${secret}`;
    for (let i = 1; i < text.length; i++) {
      for (let j = i + 1; j <= text.length; j++) {
        const out = run([secret], [text.slice(0, i), text.slice(i, j), text.slice(j)]);
        assert.equal(out, `before ${MASK} after ${MASK}`, `cut at ${i},${j}`);
      }
    }
  });

  test('one character at a time; nothing lost without secrets', () => {
    assert.equal(run(['secret-value'], [...'a secret-value b']), `a ${MASK} b`);
    assert.equal(run([], ['a', 'b', 'c']), 'abc');
  });
});

describe('secretsInSetting', () => {
  test('an option or a variable named for a secret gives its value', () => {
    assert.deepEqual(secretsInSetting('agent --key hunter22 --prompt {promptFile}'), ['hunter22']);
    assert.deepEqual(secretsInSetting("agent --api-key='two words' -v"), ['two words']);
    assert.deepEqual(secretsInSetting('agent --client_secret=abcdef123 --password p4ssw0rd1'), ['abcdef123', 'p4ssw0rd1']);
    assert.deepEqual(secretsInSetting('ANTHROPIC_API_KEY=abc123xyz agent'), ['abc123xyz']);
    assert.deepEqual(secretsInSetting(['--token', 'tok-123456']), ['tok-123456']);
  });

  test("a provider's key shape is found anywhere, a model name too", () => {
    assert.deepEqual(secretsInSetting('acme/SK-LIVE-0123456789abcdefgh'), ['SK-LIVE-0123456789abcdefgh']);
    assert.deepEqual(secretsInSetting('run --x=sk-ant-api03-abcdefghijklmnop'), ['sk-ant-api03-abcdefghijklmnop']);
    assert.deepEqual(secretsInSetting('hf_abcdefghijklmnopqrstuvwx'), ['hf_abcdefghijklmnopqrstuvwx']);
  });

  test('ordinary settings hold none', () => {
    for (const text of [
      'claude-opus-4',
      'gpt-4o-mini',
      'python3 "/x/architect.py" --max-tokens 4000 --key-file /k',
      'agent --monkey business --keyboard qwerty --token -v',
      'aider --model {model} --message-file {promptFile}',
      undefined,
      '',
    ]) {
      assert.deepEqual(secretsInSetting(text), [], String(text));
    }
  });

  test('a command line that is no valid command is read by whitespace', () => {
    assert.deepEqual(secretsInSetting("agent 'unclosed --token abcdefgh"), ['abcdefgh']);
  });
});
