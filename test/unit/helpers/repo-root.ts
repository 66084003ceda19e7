// The repository root, for tests that read test/fixtures. Compiled tests run from
// out/test/unit/<area>/, sources from test/unit/<area>/; walking up to package.json
// works for both layouts.
import * as fs from 'node:fs';
import * as path from 'node:path';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'tsconfig.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
}

export const repoRoot: string = findRoot(__dirname);
export const fixturesDir: string = path.join(repoRoot, 'test', 'fixtures');
