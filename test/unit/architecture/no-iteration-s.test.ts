// Counts in messages read "1 iteration", "3 iterations" (core/util/plural.ts), never
// "iteration(s)": the walkthrough met "after 1 iteration(s)" in the editor. Every message of the
// editor, the CLI and the core is checked; the agents' prompts may say "file(s)" in prose.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { plural } from '../../../src/core/util/plural';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

/** Prose for an agent, where "file(s)" reads as intended. */
const PROSE = new Set(['src/core/agents/prompts.ts']);

test('plural counts its noun', () => {
  assert.equal(plural(1, 'iteration'), '1 iteration');
  assert.equal(plural(0, 'iteration'), '0 iterations');
  assert.equal(plural(3, 'query', 'queries'), '3 queries');
});

test('no message says word(s)', () => {
  const offenders: string[] = [];
  for (const file of sourceFiles(path.join(repoRoot, 'src'), /\.ts$/)) {
    if (PROSE.has(path.relative(repoRoot, file).split(path.sep).join('/'))) continue;
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        if (/(?:^|[\s'"`])(?!http\()[a-z]{3,}\(s\)(?![\w=;])/.test(line)) offenders.push(`${path.relative(repoRoot, file)}:${i + 1}`);
      });
  }
  assert.deepEqual(offenders, []);
});
