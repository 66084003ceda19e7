// The source files under a folder, for the architecture tests that read what the product imports or calls.
import * as fs from 'node:fs';
import * as path from 'node:path';

export function* sourceFiles(dir: string, name: RegExp = /\.ts$/): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full, name);
    else if (name.test(entry.name)) yield full;
  }
}
