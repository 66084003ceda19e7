// The custom command tokenizer: a shell's quoting, none of its expansion.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatCommandLine, quoteWord, tokenizeCommand } from '../../../src/core/util/argv-tokenizer';
import { UserError } from '../../../src/core/util/errors';

describe('tokenizeCommand', () => {
  const cases: [string, string[]][] = [
    ['agent run --x 1', ['agent', 'run', '--x', '1']],
    ['  spaced \t out\n words  ', ['spaced', 'out', 'words']],
    [`a 'single quoted' "double quoted"`, ['a', 'single quoted', 'double quoted']],
    [`--opt="a b" x'y'z`, ['--opt=a b', 'xyz']],
    [`'' ""`, ['', '']],
    [`'it'\\''s'`, ["it's"]],
    [`"say \\"hi\\"" "back\\\\slash" "keep \\n and \\x"`, ['say "hi"', 'back\\slash', 'keep \\n and \\x']],
    [`a\\ b c\\"d \\'e`, ['a b', 'c"d', "'e"]],
    ['one \\\ntwo', ['one', 'two']],
    [`"multi\\\nline"`, ['multiline']],
    [`'no $escapes \\ here'`, ['no $escapes \\ here']],
    ['$HOME ~ *.py a|b c;d >out $(rm -rf x) `id`', ['$HOME', '~', '*.py', 'a|b', 'c;d', '>out', '$(rm', '-rf', 'x)', '`id`']],
    [`"$HOME" "\\$HOME"`, ['$HOME', '$HOME']],
    ['', []],
    ['   ', []],
  ];
  for (const [input, expected] of cases) {
    test(JSON.stringify(input), () => assert.deepEqual(tokenizeCommand(input), expected));
  }

  test('unterminated quotes and a trailing backslash are user errors', () => {
    for (const bad of [`a 'b`, `a "b`, `a "b\\"`, 'a b\\']) {
      assert.throws(
        () => tokenizeCommand(bad),
        (err: unknown) => err instanceof UserError && /unterminated|trailing backslash/.test(err.message),
      );
    }
  });
});

describe('quoteWord / formatCommandLine', () => {
  test('plain words stay bare, others are single-quoted', () => {
    assert.equal(quoteWord('--model=gpt-5'), '--model=gpt-5');
    assert.equal(quoteWord('/a/b.txt'), '/a/b.txt');
    assert.equal(quoteWord(''), "''");
    assert.equal(quoteWord('a b'), "'a b'");
    assert.equal(quoteWord("it's"), `'it'\\''s'`);
    assert.equal(quoteWord('$HOME'), "'$HOME'");
  });

  test('formatting then tokenizing gives back the same argv', () => {
    const argv = ['my agent', '--x', "it's", '', '$HOME', 'a"b', 'back\\slash', '*'];
    assert.deepEqual(tokenizeCommand(formatCommandLine(argv[0], argv.slice(1))), argv);
  });
});
