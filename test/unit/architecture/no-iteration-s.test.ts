// Counts in messages read "1 iteration", "3 iterations" (core/util/plural.ts), never
// "iteration(s)": the walkthrough met "after 1 iteration(s)" in the editor. The editor's
// messages and the iteration wording everywhere are checked; the rest of the CLI's messages
// are not yet.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { plural } from '../../../src/core/util/plural';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

test('plural counts its noun', () => {
  assert.equal(plural(1, 'iteration'), '1 iteration');
  assert.equal(plural(0, 'iteration'), '0 iterations');
  assert.equal(plural(3, 'query', 'queries'), '3 queries');
});

test('no message says iteration(s), and none of the editor’s says word(s)', () => {
  const offenders: string[] = [];
  for (const file of sourceFiles(path.join(repoRoot, 'src'), /\.ts$/)) {
    const inEditor = file.includes(`${path.sep}extension${path.sep}`);
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        if (/iteration\(s\)/.test(line) || (inEditor && /[a-z]\(s\)[^=]*[`'"]/.test(line))) offenders.push(`${path.relative(repoRoot, file)}:${i + 1}`);
      });
  }
  assert.deepEqual(offenders, []);
});
