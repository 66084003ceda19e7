// The tests of one or more reports as a tree (file → classes → function → parametrized cases),
// the way Test Explorer shows them. Every node's id is a node id pytest accepts on its
// command line, so a node can be run as it is.
import type { TestCase, TestReport } from './test-report';

export type TestNodeKind = 'file' | 'class' | 'function' | 'case';

export interface TestNode {
  /** A pytest node id: `tests/x.py`, `tests/x.py::C`, `tests/x.py::C::test_f`, `…::test_f[1]`. */
  id: string;
  label: string;
  kind: TestNodeKind;
  /** Test file relative to the code folder (posix). */
  file: string;
  /** 0-based line of the definition, when a report gives it (see definitionLine for the rest). */
  lineno?: number;
  children: TestNode[];
}

export interface SplitNodeId {
  file: string;
  /** Classes, then the function, without the parameter part. */
  names: string[];
  /** `[…]` of a parametrized case, brackets included; '' otherwise. */
  params: string;
}

/**
 * Splits a node id. `::` inside the parameter brackets (ids are free text) does not split, and
 * a `[` in the file path (`tests/case[1]/test_x.py`) does not start the parameters.
 */
export function splitNodeId(nodeid: string): SplitNodeId {
  const sep = nodeid.indexOf('::');
  const bracket = sep >= 0 ? nodeid.indexOf('[', sep) : -1;
  const head = bracket >= 0 ? nodeid.slice(0, bracket) : nodeid;
  const params = bracket >= 0 ? nodeid.slice(bracket) : '';
  const [file, ...names] = head.split('::');
  return { file, names, params };
}

/**
 * The tree of every test in `reports` (e.g. the current report, then the target's, so tests
 * the current code does not collect are listed too). The first report that has a test gives
 * its line. Order: first seen.
 */
export function buildTestTree(reports: readonly (TestReport | undefined)[]): TestNode[] {
  const roots: TestNode[] = [];
  const byId = new Map<string, TestNode>();
  const child = (parent: TestNode[], id: string, make: () => TestNode): TestNode => {
    let node = byId.get(id);
    if (!node) {
      node = make();
      byId.set(id, node);
      parent.push(node);
    }
    return node;
  };
  for (const report of reports) {
    for (const test of report?.tests ?? []) {
      const { file, names, params } = splitNodeId(test.nodeid);
      if (names.length === 0) continue;
      let node = child(roots, file, () => ({ id: file, label: file.slice(file.lastIndexOf('/') + 1), kind: 'file', file, children: [] }));
      let id = file;
      names.forEach((name, i) => {
        id = `${id}::${name}`;
        const kind: TestNodeKind = i === names.length - 1 ? 'function' : 'class';
        node = child(node.children, id, () => ({ id, label: name, kind, file, children: [] }));
      });
      // The function's definition line is every case's line.
      if (node.lineno === undefined && test.lineno !== undefined) node.lineno = test.lineno;
      if (params) {
        const caseId = test.nodeid;
        const fn = node;
        child(fn.children, caseId, () => ({ id: caseId, label: params, kind: 'case', file, children: [], ...lineOf(test) }));
      }
    }
  }
  return roots;
}

function lineOf(test: TestCase): { lineno?: number } {
  return test.lineno !== undefined ? { lineno: test.lineno } : {};
}

/**
 * 0-based line of `def name` / `async def name` / `class name` in a Python source, within the
 * classes given (by indentation: the first match after the enclosing class's line). For tests
 * whose report has no line (JUnit reports, tests the current code does not collect).
 */
export function definitionLine(source: string, names: readonly string[]): number | undefined {
  const lines = source.split(/\r?\n/);
  let from = 0;
  let found: number | undefined;
  names.forEach((name, i) => {
    if (from < 0) return;
    const keyword = i === names.length - 1 ? '(?:async\\s+def|def|class)' : 'class';
    const re = new RegExp(`^\\s*${keyword}\\s+${escapeRegExp(name)}\\b`);
    const at = lines.findIndex((l, n) => n >= from && re.test(l));
    found = at >= 0 ? at : undefined;
    from = at >= 0 ? at + 1 : -1;
  });
  return found;
}

/**
 * pytest's line of a decorated test is its first decorator's: the `def` (or `class`) below the
 * decorators is where a person looks for the test. Other lines are returned as they are.
 */
export function pastDecorators(source: string, line: number): number {
  const lines = source.split(/\r?\n/);
  if (!/^\s*@/.test(lines[line] ?? '')) return line;
  for (let n = line; n < lines.length; n++) if (/^\s*(?:async\s+def|def|class)\s/.test(lines[n])) return n;
  return line;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
