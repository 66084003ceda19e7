// In the real extension host: the requirement.xml language server is started by opening a task's
// app/requirement.xml, and its diagnostics, hover, completion and links reach the editor.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, until } from './helpers';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

function makeRepo(): { repo: string; base: string; target: string } {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-req-repo-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    fs.writeFileSync(path.join(repo, rel), text);
  };
  git(repo, 'init', '--quiet', '-b', 'main');
  write('src/shop/__init__.py', '');
  write('src/shop/cart.py', 'class Cart:\n    def total(self):\n        return 0\n');
  write('tests/test_cart.py', 'def test_placeholder():\n    pass\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  write('src/shop/cart.py', 'class Cart:\n    def total(self):\n        return 42\n');
  write('tests/test_cart.py', 'from shop.cart import Cart\n\n\ndef test_total():\n    assert Cart().total() == 42\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'target');
  return { repo, base, target: git(repo, 'rev-parse', 'HEAD') };
}

const GOOD_ITEM = [
  '  <requirement>',
  '    <location>src/shop/cart.py::Cart.total</location>',
  '    <description>total() must add up the cart</description>',
  '    <contract>total() returns 42 for the sample cart</contract>',
  '    <acceptance>tests/test_cart.py::test_total</acceptance>',
  '  </requirement>',
].join('\n');

suite('requirement.xml language server', function () {
  this.timeout(300_000);
  let taskDir: string;
  let file: string;

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    await sweci.releaseEnvironment();
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
    const { repo, base, target } = makeRepo();
    const result = await sweci.checkOutTask({ source: 'git', repoPath: repo, baseRef: base, targetRef: target, targetDir: taskDir });
    assert.equal(result?.current?.run.kind, 'ran', 'pytest ran on the base');
    file = taskFolder(taskDir).requirementFile;
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  async function openWith(text: string): Promise<vscode.TextDocument> {
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    if (doc.getText() !== text) {
      // Already open from an earlier test: replace its text as a person would.
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      await vscode.workspace.applyEdit(edit);
    }
    await (await api()).requirementServerReady();
    return doc;
  }

  const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'sweci');

  test('a bad requirement.xml shows the expected diagnostics at their ranges', async () => {
    const text = [
      '<requirements>',
      GOOD_ITEM.replace('src/shop/cart.py::Cart.total', 'src/shop/basket.py').replace('tests/test_cart.py::test_total', 'tests/test_cart.py::test_nothing'),
      '  <requirement>',
      '    <location>src/shop/cart.py</location>',
      '    <description>   </description>',
      '  </requirement>',
      '</requirements>',
      '',
    ].join('\n');
    const doc = await openWith(text);
    const diags = await until("the server's diagnostics", () => {
      const d = ours(doc.uri);
      return d.length >= 4 ? d : undefined;
    });
    const at = (needle: string) => new vscode.Range(doc.positionAt(text.indexOf(needle)), doc.positionAt(text.indexOf(needle) + needle.length));
    const byCode = new Map(diags.map((d) => [String(typeof d.code === 'object' ? d.code.value : d.code), d]));
    assert.deepEqual([...byCode.keys()].sort(), ['empty-field', 'missing-field', 'missing-location-file', 'unknown-test'], JSON.stringify(diags));
    assert.ok(byCode.get('missing-location-file')!.range.isEqual(at('src/shop/basket.py')));
    assert.ok(byCode.get('unknown-test')!.range.isEqual(at('tests/test_cart.py::test_nothing')));
    assert.ok(byCode.get('empty-field')!.range.isEqual(at('<description>   </description>')));
    assert.ok(
      byCode
        .get('missing-field')!
        .range.isEqual(
          new vscode.Range(doc.positionAt(text.lastIndexOf('<requirement>')), doc.positionAt(text.lastIndexOf('<requirement>') + '<requirement>'.length)),
        ),
    );
    assert.match(byCode.get('missing-field')!.message, /<contract>, <acceptance>/);
    assert.equal(byCode.get('missing-field')!.severity, vscode.DiagnosticSeverity.Warning);
  });

  test('fixing the document clears them; breaking the XML gives an error', async () => {
    const good = `<requirements>\n${GOOD_ITEM}\n</requirements>\n`;
    const doc = await openWith(good);
    await until('no diagnostics', () => (ours(doc.uri).length === 0 ? true : undefined));
    const edit = new vscode.WorkspaceEdit();
    edit.delete(doc.uri, new vscode.Range(doc.positionAt(good.indexOf('</requirements>')), doc.positionAt(good.length)));
    await vscode.workspace.applyEdit(edit);
    const [error] = await until('the XML error', () => (ours(doc.uri).length ? ours(doc.uri) : undefined));
    assert.equal(error.code, 'not-well-formed');
    assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
  });

  test('a file created under app/code clears its warning without an edit (the change feed watches the task for the server)', async () => {
    const text = `<requirements>\n${GOOD_ITEM.replace('src/shop/cart.py::Cart.total', 'src/shop/later.py')}\n</requirements>\n`;
    const doc = await openWith(text);
    await until('the missing-file warning', () => (ours(doc.uri).some((d) => d.code === 'missing-location-file') ? true : undefined));
    fs.writeFileSync(path.join(taskFolder(taskDir).codeDir, 'src', 'shop', 'later.py'), 'x = 1\n');
    await until('the warning to go', () => (ours(doc.uri).length === 0 ? true : undefined), 30_000);
  });

  test('hover, completion and links reach the editor', async () => {
    const text = `<requirements>\n${GOOD_ITEM}\n</requirements>\n`;
    const doc = await openWith(text);
    const idAt = doc.positionAt(text.indexOf('tests/test_cart.py::test_total') + 5);
    // The server may still be loading the task: ask again until it knows the test.
    let hovers: vscode.Hover[] = [];
    for (const started = Date.now(); Date.now() - started < 30_000; await new Promise((r) => setTimeout(r, 200))) {
      hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, idAt);
      if (hovers.some((x) => x.contents.some((c) => (c as vscode.MarkdownString).value?.includes('failed')))) break;
    }
    const value = hovers.flatMap((h) => h.contents.map((c) => (c as vscode.MarkdownString).value)).join('\n');
    assert.match(value, /\*\*failed\*\* at call stage/);

    const inAcceptance = doc.positionAt(text.indexOf('tests/test_cart.py::test_total'));
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, inAcceptance);
    assert.ok(
      list.items.some((i) => (typeof i.label === 'string' ? i.label : i.label.label) === 'tests/test_cart.py::test_total'),
      'the non-passed test is offered',
    );

    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    const cart = links.find((l) => l.target?.fsPath === path.join(taskFolder(taskDir).codeDir, 'src', 'shop', 'cart.py'));
    assert.ok(cart, `a link to cart.py among ${links.map((l) => l.target?.toString()).join(', ')}`);
    assert.equal(cart.target?.fragment, 'L2', 'at Cart.total');
  });
});
