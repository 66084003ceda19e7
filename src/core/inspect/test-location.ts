// Where a pytest node id is defined in the code folder: its file, and the line of its `def`
// (inside its class when the id names one). Node ids come from reports and records that agents
// and the code under test could write, so the file must stay inside the code folder.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { definitionLine, splitNodeId } from '../pytest/test-tree';

export interface TestLocation {
  /** Relative to the code folder (posix). */
  file: string;
  /** 0-based: the definition, else its class's, else 0. */
  line: number;
}

export async function testLocation(codeDir: string, nodeid: string): Promise<TestLocation | undefined> {
  const { file, names } = splitNodeId(nodeid);
  const normalized = path.posix.normalize(file.replace(/\\/g, '/'));
  if (!file || path.posix.isAbsolute(normalized) || normalized.startsWith('..')) return undefined;
  const text = await fs.readFile(path.join(codeDir, normalized), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const line = names.length ? (definitionLine(text, names) ?? (names.length > 1 ? definitionLine(text, names.slice(0, -1)) : undefined)) : undefined;
  return { file: normalized, line: line ?? 0 };
}
