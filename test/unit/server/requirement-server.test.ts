// The requirement.xml language server over a real LSP connection (dist/server.js on stdio):
// diagnostics with exact ranges for each rule, hover, completion and links.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Range } from 'vscode-languageserver-protocol';
import { MAX_REQUIREMENT_CHARS } from '../../../src/core/requirement/validate-requirement';
import { fileUri, LspClient, positionAt } from '../helpers/lsp-client';
import { ADD_REASON, doc, makeRequirementTask, requirement } from './requirement-task';

/** The range of the `nth` (0-based) occurrence of `needle` in `text`. */
function rangeOf(text: string, needle: string, nth = 0): Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `${JSON.stringify(needle)} #${nth} is not in the text`);
  }
  return { start: positionAt(text, at), end: positionAt(text, at + needle.length) };
}

function only(diags: Diagnostic[], code: string): Diagnostic {
  const found = diags.filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(diags, null, 1)}`);
  assert.equal(found[0].source, 'sweci');
  return found[0];
}

describe('requirement.xml language server', () => {
  let client: LspClient;
  let task: Awaited<ReturnType<typeof makeRequirementTask>>;
  let uri: string;

  before(async () => {
    task = await makeRequirementTask();
    uri = fileUri(task.requirementFile);
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
    await task.dispose();
  });

  test('advertises hover, completion and links', () => {
    assert.ok(client.capabilities?.hoverProvider);
    assert.ok(client.capabilities?.completionProvider);
    assert.ok(client.capabilities?.documentLinkProvider);
  });

  test('a good document has no diagnostics', async () => {
    const text = doc(
      requirement(),
      requirement({ location: 'pkg/calc.py: def helper', acceptance: 'tests/test_calc.py::TestCalc::test_sub tests/test_calc.py::test_passing[1-2]' }),
    );
    assert.deepEqual(await client.open(uri, text), []);
  });

  describe('each rule, with its exact range', () => {
    const cases: Array<{ rule: string; text: string; range: (t: string) => Range; severity: 1 | 2; message?: RegExp }> = [
      { rule: 'empty', text: '  \n  ', range: () => ({ start: { line: 0, character: 0 }, end: { line: 1, character: 2 } }), severity: 1 },
      { rule: 'markdown-fence', text: '```xml\n<requirements/>\n```\n', range: (t) => rangeOf(t, '```xml'), severity: 1 },
      {
        rule: 'not-well-formed',
        text: '<requirements>\n  <requirement>\n</requirements>\n',
        range: (t) => rangeOf(t, '</requirements>'),
        severity: 1,
        message: /closing tag/,
      },
      { rule: 'no-items', text: '<notes attr="a>b">\n  <p>hi</p>\n</notes>\n', range: (t) => rangeOf(t, '<notes attr="a>b">'), severity: 1 },
      {
        rule: 'too-many-items',
        text: doc(...[1, 2, 3, 4, 5, 6].map((i) => requirement({ description: `change ${i}` }))),
        range: (t) => rangeOf(t, '<requirement>', 5),
        severity: 2,
        message: /6 requirements/,
      },
      { rule: 'root-is-item', text: requirement().trim(), range: (t) => rangeOf(t, '<requirement>'), severity: 2 },
      { rule: 'missing-field', text: doc(requirement({ contract: null })), range: (t) => rangeOf(t, '<requirement>'), severity: 2, message: /<contract>/ },
      { rule: 'empty-field', text: doc(requirement({ description: '   ' })), range: (t) => rangeOf(t, '<description>   </description>'), severity: 2 },
      {
        rule: 'duplicate-field',
        text: doc(requirement().replace('</requirement>', '  <description>again</description>\n  </requirement>')),
        range: (t) => rangeOf(t, '<description>again</description>'),
        severity: 2,
      },
      {
        rule: 'duplicate-requirement',
        text: doc(requirement(), requirement()),
        range: (t) => rangeOf(t, '<requirement>', 1),
        severity: 2,
        message: /repeats requirement 1/,
      },
      {
        rule: 'missing-location-file',
        text: doc(requirement({ location: 'pkg/calc.py and pkg/nothere.py::f' })),
        range: (t) => rangeOf(t, 'pkg/nothere.py'),
        severity: 2,
        message: /new="true"/,
      },
      {
        rule: 'unknown-test',
        text: doc(requirement({ acceptance: 'tests/test_calc.py::test_add and tests/test_calc.py::test_nope[x]' })),
        range: (t) => rangeOf(t, 'tests/test_calc.py::test_nope[x]'),
        severity: 2,
      },
    ];
    for (const c of cases) {
      test(c.rule, async () => {
        const d = only(await client.change(uri, c.text), c.rule);
        assert.deepEqual(d.range, c.range(c.text));
        assert.equal(d.severity, c.severity);
        if (c.message) assert.match(typeof d.message === 'string' ? d.message : d.message.value, c.message);
      });
    }

    test('a location marked new needs no file; a path leaving app/code is never "found"', async () => {
      assert.deepEqual(await client.change(uri, doc(requirement({ location: 'pkg/fresh.py (new)' }))), []);
      assert.deepEqual(
        await client.change(uri, doc(requirement().replace('<location>', '<location new="true">').replace('pkg/calc.py::Calc.add', 'pkg/fresh.py'))),
        [],
      );
      const text = doc(requirement({ location: '../../code/pkg/calc.py' }));
      assert.deepEqual(only(await client.change(uri, text), 'missing-location-file').range, rangeOf(text, '../../code/pkg/calc.py'));
    });

    test('a near-miss test id: "Did you mean" with a quick fix that puts the known id in its place', async () => {
      const text = doc(requirement({ acceptance: 'tests/test_calc.py::test_ad passes' }));
      const d = only(await client.change(uri, text), 'unknown-test');
      assert.match(typeof d.message === 'string' ? d.message : d.message.value, /Did you mean tests\/test_calc\.py::test_add\?$/);
      const actions = await client.codeActions(uri, d.range, [d]);
      assert.equal(actions.length, 1);
      assert.equal(actions[0].title, 'Replace with tests/test_calc.py::test_add');
      assert.equal(actions[0].kind, 'quickfix');
      const edit = actions[0].edit?.changes?.[uri]?.[0];
      assert.deepEqual(edit, { range: rangeOf(text, 'tests/test_calc.py::test_ad'), newText: 'tests/test_calc.py::test_add' });
      const fixed = text.replace('tests/test_calc.py::test_ad ', 'tests/test_calc.py::test_add ');
      assert.deepEqual(
        (await client.change(uri, fixed)).filter((x) => x.code === 'unknown-test'),
        [],
        'the fix leaves no warning',
      );
      // Far from every known id: no guess, no action. A diagnostic the client made up gets none either.
      const far = only(await client.change(uri, doc(requirement({ acceptance: 'tests/test_calc.py::test_something_else_entirely' }))), 'unknown-test');
      assert.doesNotMatch(typeof far.message === 'string' ? far.message : far.message.value, /Did you mean/);
      assert.deepEqual(await client.codeActions(uri, far.range, [far]), []);
      assert.deepEqual(await client.codeActions(uri, far.range, [{ ...far, source: 'elsewhere', data: { replacement: 'rm -rf' } }]), []);
    });

    test('too large: one error on the first line, and nothing parsed', async () => {
      const text = `<requirements>${'x'.repeat(MAX_REQUIREMENT_CHARS)}</requirements>`;
      const diags = await client.change(uri, text);
      assert.equal(diags.length, 1);
      assert.equal(only(diags, 'too-large').range.start.line, 0);
    });

    test('a byte order mark does not shift the ranges', async () => {
      const text = `\ufeff${doc(requirement({ acceptance: 'tests/test_calc.py::test_nope' }))}`;
      assert.deepEqual(only(await client.change(uri, text), 'unknown-test').range, rangeOf(text, 'tests/test_calc.py::test_nope'));
      const broken = '\ufeff<a></b>';
      assert.deepEqual(only(await client.change(uri, broken), 'not-well-formed').range.start, { line: 0, character: 4 });
    });
  });

  describe('hover on a node id', () => {
    const text = doc(
      requirement({
        acceptance: 'tests/test_calc.py::test_add, tests/test_calc.py::TestCalc::test_sub, tests/test_calc.py::test_passing, tests/test_calc.py::test_nope',
      }),
    );
    const hoverOn = async (needle: string) => {
      await client.change(uri, text);
      const r = rangeOf(text, needle);
      const h = await client.hover(uri, { line: r.start.line, character: r.start.character + 3 });
      assert.ok(h, `no hover on ${needle}`);
      assert.deepEqual(h.range, r);
      return (h.contents as { kind: string; value: string }).value;
    };

    test('a non-passed test: its kind and reason, the reason fenced so it cannot become markdown', async () => {
      const value = await hoverOn('tests/test_calc.py::test_add');
      assert.match(value, /\*\*failed\*\* at call stage/);
      assert.ok(value.includes(ADD_REASON));
      const fence = /^(`{4,})text$/m.exec(value);
      assert.ok(fence, value);
      assert.ok(value.indexOf(ADD_REASON) > value.indexOf(fence[0]));
    });

    test('an error at setup', async () => {
      assert.match(await hoverOn('tests/test_calc.py::TestCalc::test_sub'), /\*\*error\*\* at setup stage[\s\S]*fixture 'db' not found/);
    });

    test('a known passing test, and an unknown one', async () => {
      assert.match(await hoverOn('tests/test_calc.py::test_passing'), /not among the non-passed/);
      assert.match(await hoverOn('tests/test_calc.py::test_nope'), /Not a known test/);
    });

    test('no hover away from node ids', async () => {
      await client.change(uri, text);
      assert.equal(await client.hover(uri, rangeOf(text, 'Fix add').start), null);
    });
  });

  describe('completion', () => {
    const at = async (text: string, offset = text.length) => {
      await client.change(uri, text);
      return client.completion(uri, positionAt(text, offset));
    };

    test('at the top: the root with a requirement inside', async () => {
      const items = await at('<');
      assert.deepEqual(
        items.map((i) => i.label),
        ['requirements'],
      );
      assert.match(items[0].textEdit?.newText ?? '', /<requirement>[\s\S]*<acceptance>/);
    });

    test('in the root: a whole requirement as a snippet', async () => {
      const items = await at('<requirements>\n  <req');
      assert.deepEqual(
        items.map((i) => i.label),
        ['requirement'],
      );
      assert.equal(items[0].insertTextFormat, 2);
      assert.deepEqual((items[0].textEdit as { range: Range }).range, { start: { line: 1, character: 3 }, end: { line: 1, character: 6 } });
    });

    test('in a requirement: its four fields; in a field: nothing', async () => {
      assert.deepEqual(
        (await at('<requirements><requirement><')).map((i) => i.label),
        ['location', 'description', 'contract', 'acceptance'],
      );
      assert.deepEqual(await at('<requirements><requirement><location><'), []);
    });

    test('a closing tag closes the innermost open element', async () => {
      const items = await at('<requirements><requirement><contract>x</');
      assert.deepEqual(
        items.map((i) => i.textEdit?.newText),
        ['contract>'],
      );
    });

    test('in <acceptance>: the non-passed node ids, replacing what is typed', async () => {
      const text = '<requirements><requirement><acceptance>tests/test_calc.py::te';
      const items = await at(text);
      assert.deepEqual(items.map((i) => i.label).sort(), [
        'tests/test_calc.py::TestCalc::test_sub',
        'tests/test_calc.py::test_add',
        'tests/test_calc.py::test_gone',
      ]);
      const add = items.find((i) => i.label === 'tests/test_calc.py::test_add');
      assert.equal(add?.detail, 'failed at call');
      assert.deepEqual((add?.textEdit as { range: Range }).range.start, positionAt(text, text.indexOf('tests/')));
    });

    test('nothing inside a comment', async () => {
      assert.deepEqual(await at('<requirements><!-- <'), []);
    });
  });

  describe('links from <location>', () => {
    test('to the file, at the function or class when it is found', async () => {
      const text = doc(
        requirement({ location: 'pkg/calc.py::Calc.add' }),
        requirement({ location: '/app/code/pkg/calc.py: def helper', description: 'other' }),
        requirement({ location: 'pkg/calc.py::Nope', description: 'third' }),
      );
      await client.change(uri, text);
      const links = await client.links(uri);
      const calc = pathToFileURL(path.join(task.codeDir, 'pkg', 'calc.py')).href;
      assert.deepEqual(
        links.map((l) => [l.range, l.target]),
        [
          [rangeOf(text, 'pkg/calc.py', 0), `${calc}#L4`],
          [rangeOf(text, '/app/code/pkg/calc.py'), `${calc}#L8`],
          [rangeOf(text, 'pkg/calc.py', 2), calc],
        ],
      );
      assert.match(links[2].tooltip ?? '', /Nope not found/);
    });

    test('no link for a missing file or a path leaving app/code', async () => {
      await client.change(uri, doc(requirement({ location: 'pkg/nothere.py ../../../etc/passwd.txt pkg/../pkg/calc.py' })));
      assert.deepEqual(await client.links(uri), []);
    });
  });

  test('files created under app/code: the warning goes away without editing the document', async () => {
    const text = doc(requirement({ location: 'pkg/later.py' }));
    only(await client.change(uri, text), 'missing-location-file');
    const file = path.join(task.codeDir, 'pkg', 'later.py');
    await fs.writeFile(file, 'x = 1\n');
    const next = client.nextDiagnostics(uri);
    await client.filesChanged([{ uri: fileUri(file), type: 1 }]);
    assert.deepEqual(await next, []);
  });

  test('without any file event (the client missed it), a created file is still seen within seconds', async () => {
    const text = doc(requirement({ location: 'pkg/unreported.py' }));
    only(await client.change(uri, text), 'missing-location-file');
    const next = client.nextDiagnostics(uri);
    await fs.writeFile(path.join(task.codeDir, 'pkg', 'unreported.py'), 'x = 1\n');
    // No filesChanged: the server's own check of the task's inputs finds it within seconds.
    assert.deepEqual(await next, []);
    await fs.rm(path.join(task.codeDir, 'pkg', 'unreported.py'));
  });

  test('a requirement.xml outside a task gets the document checks only', async () => {
    const other = fileUri(path.join(task.root, 'elsewhere', 'requirement.xml'));
    assert.deepEqual(await client.open(other, doc(requirement({ location: 'pkg/nothere.py', acceptance: 'tests/x.py::test_y' }))), []);
    await client.close(other);
  });

  test('the server is still up and wrote nothing to stderr', () => {
    assert.ok(client.alive);
    assert.equal(client.stderr.join(''), '');
  });
});

describe('requirement.xml language server in another display language', () => {
  const PASSING = 'A test function in app/code; it is not among the non-passed tests.';
  const text = doc(requirement({ acceptance: 'tests/test_calc.py::test_passing' }));

  const hoverWith = async (initializationOptions: unknown): Promise<string> => {
    const task = await makeRequirementTask();
    const client = await LspClient.start(initializationOptions);
    try {
      const uri = fileUri(task.requirementFile);
      await client.open(uri, text);
      const r = rangeOf(text, 'tests/test_calc.py::test_passing');
      const h = await client.hover(uri, { line: r.start.line, character: r.start.character + 3 });
      assert.ok(h, 'no hover');
      return (h.contents as { value: string }).value;
    } finally {
      await client.stop();
      await task.dispose();
    }
  };

  test('its text comes from the bundle the extension hands over at start (initializationOptions)', async () => {
    const value = await hoverWith({ l10nBundle: { [PASSING]: 'Eine Testfunktion in app/code; nicht unter den nicht bestandenen Tests.' } });
    assert.match(value, /Eine Testfunktion in app\/code/);
    assert.ok(!value.includes(PASSING));
  });

  test('its diagnostics are worded from the bundle too; the English without one', async () => {
    const task = await makeRequirementTask();
    const empty = doc(requirement({ description: '' }));
    const diagnosticWith = async (initializationOptions: unknown): Promise<string> => {
      const client = await LspClient.start(initializationOptions);
      try {
        const { message } = only(await client.open(fileUri(task.requirementFile), empty), 'empty-field');
        return typeof message === 'string' ? message : message.value;
      } finally {
        await client.stop();
      }
    };
    try {
      assert.equal(
        await diagnosticWith({ l10nBundle: { 'Requirement {0}: <{1}> is empty.': 'Anforderung {0}: <{1}> ist leer.' } }),
        'Anforderung 1: <description> ist leer.',
      );
      assert.equal(await diagnosticWith({}), 'Requirement 1: <description> is empty.');
    } finally {
      await task.dispose();
    }
  });

  test('a malformed bundle is ignored: the English', async () => {
    assert.ok((await hoverWith({ l10nBundle: { [PASSING]: 42 } })).includes(PASSING));
  });
});
