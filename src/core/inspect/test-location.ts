// Where a pytest node id is defined in the code folder: its file, and the line of its `def`
// (inside its class when the id names one). Node ids come from reports and records that agents
// and the code under test could write, so the file must stay inside the code folder.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface TestLocation {
  /** Relative to the code folder (posix). */
  file: string;
  /** 0-based; 0 when the definition is not found. */
  line: number;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The line of `def name` (or `async def`), searched after `after`; -1 when absent. */
function findDef(lines: string[], kind: 'def' | 'class', name: string, after: number): number {
  const re = kind === 'def' ? new RegExp(`^\\s*(async\\s+)?def\\s+${escapeRegExp(name)}\\s*\\(`) : new RegExp(`^\\s*class\\s+${escapeRegExp(name)}\\b`);
  for (let i = Math.max(0, after); i < lines.length; i++) if (re.test(lines[i])) return i;
  return -1;
}

/** The definition line of `parts` (classes then a function) in `text`; 0 when not found. */
export function definitionLine(text: string, parts: string[]): number {
  const lines = text.split(/\r?\n/);
  let from = 0;
  for (let i = 0; i < parts.length; i++) {
    const last = i === parts.length - 1;
    const at = findDef(lines, last ? 'def' : 'class', parts[i], from);
    if (at < 0) return last ? from : 0;
    from = at;
  }
  return from;
}

export async function testLocation(codeDir: string, nodeid: string): Promise<TestLocation | undefined> {
  const sep = nodeid.indexOf('::');
  const file = sep < 0 ? nodeid : nodeid.slice(0, sep);
  // Parameters ([…], which may hold '::' themselves) are not part of a definition's name.
  const names = sep < 0 ? '' : nodeid.slice(sep + 2).replace(/\[.*$/s, '');
  const normalized = path.posix.normalize(file.replace(/\\/g, '/'));
  if (!file || path.posix.isAbsolute(normalized) || normalized.startsWith('..')) return undefined;
  const abs = path.join(codeDir, normalized);
  const text = await fs.readFile(abs, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parts = names ? names.split('::') : [];
  return { file: normalized, line: parts.length ? definitionLine(text, parts) : 0 };
}
