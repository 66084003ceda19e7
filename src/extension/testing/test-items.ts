// Test Explorer's items, built from the task's reports (core/pytest/test-tree). Existing items
// are updated in place, so VS Code keeps their results across refreshes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { definitionLine, pastDecorators, splitNodeId, type TestNode } from '../../core/pytest/test-tree';

/** Replaces `collection`'s items with `nodes`' (same ids keep their TestItem). */
export function syncItems(ctrl: vscode.TestController, collection: vscode.TestItemCollection, nodes: readonly TestNode[], codeDir: string): void {
  const sources = new Map<string, string | undefined>();
  const source = (file: string): string | undefined => {
    if (!sources.has(file)) {
      let text: string | undefined;
      try {
        text = fs.readFileSync(path.join(codeDir, file), 'utf8');
      } catch {
        text = undefined;
      }
      sources.set(file, text);
    }
    return sources.get(file);
  };
  const build = (into: vscode.TestItemCollection, list: readonly TestNode[], parentLine?: number): void => {
    const items: vscode.TestItem[] = [];
    for (const node of list) {
      const uri = vscode.Uri.file(path.join(codeDir, ...node.file.split('/')));
      let item = into.get(node.id);
      // A TestItem's uri is fixed at creation.
      if (!item || item.uri?.fsPath !== uri.fsPath) item = ctrl.createTestItem(node.id, node.label, uri);
      item.label = node.label;
      const line = lineOf(node, parentLine, source);
      item.range = line !== undefined ? new vscode.Range(line, 0, line, 0) : undefined;
      build(item.children, node.children, line);
      items.push(item);
    }
    into.replace(items);
  };
  build(collection, nodes);
}

function lineOf(node: TestNode, parentLine: number | undefined, source: (file: string) => string | undefined): number | undefined {
  if (node.kind === 'file') return undefined;
  // A parametrized case is defined where its function is.
  if (node.kind === 'case') return parentLine ?? node.lineno;
  const text = source(node.file);
  if (node.lineno !== undefined) return text === undefined ? node.lineno : pastDecorators(text, node.lineno);
  return text === undefined ? undefined : definitionLine(text, splitNodeId(node.id).names);
}

/** The leaf items (the tests pytest reports) under `items`, each once. */
export function leaves(items: Iterable<vscode.TestItem>): vscode.TestItem[] {
  const out = new Map<string, vscode.TestItem>();
  const walk = (item: vscode.TestItem) => {
    if (item.children.size === 0) out.set(item.id, item);
    else item.children.forEach(walk);
  };
  for (const item of items) walk(item);
  return [...out.values()];
}

/** Every item by id. */
export function indexItems(collection: vscode.TestItemCollection): Map<string, vscode.TestItem> {
  const out = new Map<string, vscode.TestItem>();
  const walk = (item: vscode.TestItem) => {
    out.set(item.id, item);
    item.children.forEach(walk);
  };
  collection.forEach(walk);
  return out;
}
