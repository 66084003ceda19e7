// Path containment checks shared by the unzip and workspace code.
import * as path from 'node:path';
import { promises as fs } from 'node:fs';

/** True when `child` is `parent` or below it (both resolved lexically, no symlinks followed). */
export function isSameOrInside(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Resolves symlinks of the longest existing prefix of `p` and appends the rest, so a folder that
 * does not exist yet can still be compared with real paths.
 */
export async function realpathLenient(p: string): Promise<string> {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = await fs.realpath(cur);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return abs;
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}
