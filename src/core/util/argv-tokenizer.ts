// Splits a command template into argv words with a shell's quoting rules, but nothing else a
// shell does: no variable expansion, no globbing, no operators. The words go straight to
// spawn, so no shell ever sees them.
import { UserError } from './errors';

/**
 * Rules (POSIX-like):
 * - unquoted whitespace separates words;
 * - '…' is literal (no escapes inside);
 * - "…" keeps everything literal except \" \\ \$ \` and backslash-newline (removed);
 * - an unquoted backslash escapes the next character; backslash-newline is removed;
 * - quotes join with adjacent text (`--x="a b"` is one word); `''` and `""` make an empty word.
 * `$VAR`, `*`, `~`, `|`, `;`, `>` are ordinary characters.
 */
export function tokenizeCommand(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const fail = (what: string): never => {
    throw new UserError(`The command "${text}" has ${what}. Close it, or escape it with a backslash.`);
  };
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) fail('an unterminated single quote');
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= text.length) fail('an unterminated double quote');
        const d = text[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < text.length) {
          const n = text[i + 1];
          if (n === '"' || n === '\\' || n === '$' || n === '`') {
            word += n;
            i += 2;
            continue;
          }
          if (n === '\n') {
            i += 2;
            continue;
          }
        }
        word += d;
        i++;
      }
    } else if (c === '\\') {
      if (i + 1 >= text.length) fail('a trailing backslash');
      const n = text[i + 1];
      if (n !== '\n') {
        word += n;
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** One argv word as a POSIX shell would need it written (for display and logs only). */
export function quoteWord(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteWord).join(' ');
}
