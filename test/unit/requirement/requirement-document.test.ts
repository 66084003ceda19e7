// requirement.xml parsing: the shapes agents write, and the mistakes they make.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { validateRequirementFile } from '../../../src/core/requirement/validate-requirement';
import { parseRequirementDocument, type RequirementParseResult } from '../../../src/core/requirement/requirement-document';
import { duplicateRequirementWarnings } from '../../../src/core/requirement/duplicate-requirements';
import { REQUIREMENT_SKELETON } from '../../../src/core/requirement/requirement-skeleton';

const item = (tag: string, n: number, extra = ''): string =>
  `  <${tag} id="${n}">\n` +
  `    <location>src/pkg/mod${n}.py: class Thing</location>\n` +
  `    <description>Thing ${n} is missing.</description>\n` +
  `    <contract>Thing ${n} exists.</contract>\n` +
  `    <acceptance>tests/test_mod${n}.py passes.</acceptance>${extra}\n` +
  `  </${tag}>\n`;

function ok(r: RequirementParseResult): Extract<RequirementParseResult, { ok: true }> {
  assert.ok(r.ok, `expected ok, got ${JSON.stringify(r)}`);
  return r;
}
function bad(r: RequirementParseResult): Extract<RequirementParseResult, { ok: false }> {
  assert.ok(!r.ok, `expected errors, got ${JSON.stringify(r)}`);
  return r;
}

describe('parseRequirementDocument', () => {
  test('a well-formed document: items, field text, positions, attributes', () => {
    const doc = `<?xml version="1.0" encoding="UTF-8"?>\n<requirements>\n${item('requirement', 1)}${item('requirement', 2)}</requirements>\n`;
    const r = ok(parseRequirementDocument(doc));
    assert.equal(r.rootTag, 'requirements');
    assert.equal(r.items.length, 2);
    assert.deepEqual(r.warnings, []);
    const [a, b] = r.items;
    assert.equal(a.index, 1);
    assert.equal(a.tag, 'requirement');
    assert.equal(a.line, 3);
    assert.equal(a.column, 3);
    assert.equal(a.endLine, 8);
    assert.deepEqual(a.attributes, { id: '1' });
    assert.deepEqual(a.fields.location, { text: 'src/pkg/mod1.py: class Thing', line: 4, column: 5 });
    assert.equal(a.fields.acceptance?.text, 'tests/test_mod1.py passes.');
    assert.equal(b.line, 9);
    assert.equal(b.fields.contract?.line, 12);
  });

  test('any root and item names; fields matched case-insensitively', () => {
    const doc = `<plan>\n<change><Location>a.py</Location><DESCRIPTION>d</DESCRIPTION><contract>c</contract><acceptance>t</acceptance></change>\n<notes>free text</notes>\n</plan>`;
    const r = ok(parseRequirementDocument(doc));
    assert.equal(r.items.length, 1, 'elements without fields (notes) are not items');
    assert.equal(r.items[0].tag, 'change');
    assert.equal(r.items[0].fields.location?.text, 'a.py');
    assert.equal(r.items[0].fields.description?.text, 'd');
  });

  test('markup, entities and CDATA inside a field keep their text', () => {
    const doc = `<r><item><location>a.py</location><description>x &amp; <code>f()</code> &lt;= y</description><contract><![CDATA[returns <None>]]></contract><acceptance>ok</acceptance></item></r>`;
    const r = ok(parseRequirementDocument(doc));
    assert.equal(r.items[0].fields.description?.text, 'x & f() <= y');
    assert.equal(r.items[0].fields.contract?.text, 'returns <None>');
  });

  test('CRLF line endings and a BOM give the same positions', () => {
    const doc = '\ufeff<requirements>\r\n' + item('requirement', 1).replace(/\n/g, '\r\n') + '</requirements>\r\n';
    const r = ok(parseRequirementDocument(doc));
    assert.equal(r.items[0].line, 2);
    assert.equal(r.items[0].fields.description?.line, 4);
    assert.equal(r.items[0].fields.description?.column, 5);
  });

  test('a wrapper element around the items is looked through', () => {
    const doc = `<document>\n<requirements>\n${item('requirement', 1)}</requirements>\n</document>`;
    const r = ok(parseRequirementDocument(doc));
    assert.equal(r.rootTag, 'document');
    assert.equal(r.items.length, 1);
  });

  test('a root holding the fields itself is one requirement, with a warning', () => {
    const doc = `<requirement><location>a</location><description>b</description><contract>c</contract><acceptance>d</acceptance></requirement>`;
    const r = ok(parseRequirementDocument(doc));
    assert.equal(r.items.length, 1);
    assert.deepEqual(
      r.warnings.map((w) => w.code),
      ['root-is-item'],
    );
  });

  test('warnings: more than five items, a missing field, an empty field, a duplicate field', () => {
    const items = [1, 2, 3, 4, 5].map((n) => item('item', n)).join('');
    const sixth = `  <item>\n    <location>x.py</location>\n    <description>  </description>\n    <contract>c</contract>\n    <contract>again</contract>\n  </item>\n`;
    const r = ok(parseRequirementDocument(`<reqs>\n${items}${sixth}</reqs>`));
    assert.equal(r.items.length, 6);
    const byCode = new Map(r.warnings.map((w) => [w.code, w]));
    assert.deepEqual([...byCode.keys()].sort(), ['duplicate-field', 'empty-field', 'missing-field', 'too-many-items']);
    for (const w of r.warnings) assert.equal(w.severity, 'warning');
    assert.equal(byCode.get('too-many-items')?.line, 32, 'points at the sixth item');
    assert.match(byCode.get('missing-field')?.message ?? '', /Requirement 6 .*<acceptance>/);
    assert.equal(byCode.get('empty-field')?.line, 34);
    assert.equal(byCode.get('duplicate-field')?.line, 36);
    assert.equal(r.items[5].fields.contract?.text, 'c', 'the first of duplicates is kept');
    assert.equal(r.items[5].fields.acceptance, undefined);
  });

  test('warnings name a requirement by the id its author gave it, else by its position', () => {
    const nine = `  <requirement id="9">\n    <location>a.py</location>\n    <description> </description>\n    <contract>c</contract>\n    <acceptance>t</acceptance>\n  </requirement>\n`;
    const unnamed = `  <requirement>\n    <location>b.py</location>\n    <description>d</description>\n  </requirement>\n`;
    const r = ok(parseRequirementDocument(`<requirements>\n${item('requirement', 4)}${nine}${unnamed}${nine}</requirements>`));
    assert.deepEqual(
      r.items.map((i) => [i.index, i.name]),
      [
        [1, '4'],
        [2, '9'],
        [3, '3'],
        [4, '9'],
      ],
    );
    const messages = r.warnings.map((w) => w.message);
    assert.ok(messages.includes('Requirement 9: <description> is empty.'), messages.join('\n'));
    assert.ok(
      messages.some((m) => /^Requirement 3 \(<requirement>\) has no <contract>, <acceptance>\.$/.test(m)),
      messages.join('\n'),
    );
    const dup = duplicateRequirementWarnings(r);
    assert.deepEqual(
      dup.map((d) => d.message),
      ['Requirement 9 (item 4) repeats requirement 9 (item 2).'],
    );
  });

  test('errors: empty file, whitespace only', () => {
    for (const text of ['', '  \n\t\n']) {
      const r = bad(parseRequirementDocument(text));
      assert.equal(r.errors[0].code, 'empty');
      assert.equal(r.errors[0].severity, 'error');
    }
  });

  test('errors: not well-formed, with the line and column of the problem', () => {
    const r = bad(parseRequirementDocument('<requirements>\n  <requirement>\n    <location>a</location>\n  </requirements>\n'));
    assert.equal(r.errors[0].code, 'not-well-formed');
    assert.equal(r.errors[0].line, 4);
    assert.ok(r.errors[0].column > 1);
    assert.match(r.errors[0].message, /^Not well-formed XML: .*requirement/);
  });

  test('errors: plain text, two roots, a Markdown fence', () => {
    assert.equal(bad(parseRequirementDocument('Here are the requirements.')).errors[0].code, 'not-well-formed');
    assert.equal(bad(parseRequirementDocument('<a></a>\n<b></b>')).errors[0].code, 'not-well-formed');
    const fenced = bad(parseRequirementDocument('```xml\n<requirements></requirements>\n```\n'));
    assert.equal(fenced.errors[0].code, 'markdown-fence');
    assert.match(fenced.errors[0].message, /code fence/);
  });

  test('errors: no requirement items', () => {
    for (const doc of ['<requirements/>', '<requirements>\n  <note>nothing to do</note>\n  <note>really</note>\n</requirements>']) {
      const r = bad(parseRequirementDocument(doc));
      assert.equal(r.errors[0].code, 'no-items');
      assert.equal(r.errors[0].line, 1);
      assert.match(r.errors[0].message, /<requirements>/);
    }
  });
});

describe('validateRequirementFile', () => {
  test('a missing file is a diagnostic; a present one is parsed', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-req-'));
    try {
      const file = path.join(dir, 'requirement.xml');
      const missing = bad((await validateRequirementFile(file)).result);
      assert.equal(missing.errors[0].code, 'missing-file');
      await fs.writeFile(file, `<r>${item('requirement', 1)}</r>`);
      assert.equal(ok((await validateRequirementFile(file)).result).items.length, 1);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('what an Architect could leave there instead of a document is refused unread: a link (to the oracle), a FIFO, a 1 GB file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-req-'));
    try {
      const file = path.join(dir, 'requirement.xml');
      const oracle = path.join(dir, 'target.report.json');
      await fs.writeFile(oracle, `<r>${item('requirement', 1)}</r>`); // even a valid document behind the link
      await fs.symlink(oracle, file);
      assert.equal(bad((await validateRequirementFile(file)).result).errors[0].code, 'not-a-file');
      await fs.rm(file);
      execFileSync('mkfifo', [file]); // opening a FIFO for reading would wait for a writer forever
      assert.equal(bad((await validateRequirementFile(file)).result).errors[0].code, 'not-a-file');
      await fs.rm(file);
      await fs.writeFile(file, '');
      await fs.truncate(file, 2 ** 30); // sparse: a gigabyte that is never read
      const heap = process.memoryUsage().rss;
      const big = bad((await validateRequirementFile(file)).result);
      assert.equal(big.errors[0].code, 'too-large');
      assert.match(big.errors[0].message, /has 1073741824 bytes/);
      assert.ok(process.memoryUsage().rss - heap < 64 * 2 ** 20, 'not read into memory');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test('the skeleton a human Architect is offered warns on each hint left in place, and on none once written', () => {
    const skeleton = ok(parseRequirementDocument(REQUIREMENT_SKELETON));
    const hints = skeleton.warnings.filter((w) => w.code === 'placeholder-field');
    assert.deepEqual(
      hints.map((w) => w.message),
      ['location', 'description', 'contract', 'acceptance'].map((f) => `Requirement 1: <${f}> still holds the skeleton's hint; write yours in its place.`),
    );
    assert.equal(hints[0].line, 4);
    // One field written (even with the hint's words around it), the others reflowed but unchanged.
    const hint = (field: string): string => new RegExp(`<${field}>([^<]*)</${field}>`).exec(REQUIREMENT_SKELETON)![1];
    const SKELETON_PLACEHOLDERS = { location: hint('location'), contract: hint('contract') };
    const edited = REQUIREMENT_SKELETON.replace(SKELETON_PLACEHOLDERS.location, 'src/pkg/mod.py: the module').replace(
      SKELETON_PLACEHOLDERS.contract,
      SKELETON_PLACEHOLDERS.contract.replace(' ', '\n      '),
    );
    const left = ok(parseRequirementDocument(edited)).warnings.filter((w) => w.code === 'placeholder-field');
    assert.deepEqual(
      left.map((w) => w.message.match(/<(\w+)>/)?.[1]),
      ['description', 'contract', 'acceptance'],
    );
  });
});
