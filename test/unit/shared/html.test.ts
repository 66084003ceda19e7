// The escaping template and the one page shell: every interpolation is text unless it is a
// fragment the template (or rawHtml) made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html, htmlPage, rawHtml, SafeHtml } from '../../../src/core/util/html';

test('interpolated text is escaped: markup, quotes and ampersands', () => {
  const hostile = '</td><script>alert("x")</script>';
  assert.equal(html`<td>${hostile}</td>`.text, '<td>&lt;/td&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td>');
  assert.equal(html`<a title="${'" onclick="alert(1)'}">x</a>`.text, '<a title="&quot; onclick=&quot;alert(1)">x</a>');
  assert.equal(html`${'a & b &amp; c'}`.text, 'a &amp; b &amp;amp; c', 'an entity in the text is text too');
  assert.equal(html`${`<>&"`}`.text, '&lt;&gt;&amp;&quot;');
});

test('fragments are kept as they are, not escaped twice', () => {
  const cell = html`<td>${'<b>'}</td>`;
  const row = html`<tr>${cell}</tr>`;
  assert.equal(row.text, '<tr><td>&lt;b&gt;</td></tr>');
  assert.equal(html`<div>${html`<p>${row}</p>`}</div>`.text, '<div><p><tr><td>&lt;b&gt;</td></tr></p></div>');
  assert.equal(html`${rawHtml('<hr>')}`.text, '<hr>');
  assert.ok(row instanceof SafeHtml);
  // Something that only looks like a fragment is text.
  assert.equal(html`${{ text: '<b>' }}`.text, '[object Object]');
});

test('arrays join without separators, each item escaped or kept; nothing renders for null, undefined, false', () => {
  assert.equal(html`<ul>${['<a>', html`<li>b</li>`, ['c', html`<i>d</i>`]]}</ul>`.text, '<ul>&lt;a&gt;<li>b</li>c<i>d</i></ul>');
  assert.equal(html`[${null}${undefined}${false}]`.text, '[]');
  assert.equal(html`${0} ${1.5} ${true}`.text, '0 1.5 true');
  assert.equal(html`<ul>${[]}</ul>`.text, '<ul></ul>');
});

test('the page shell: CSP first, title escaped, body attributes escaped, names checked', () => {
  const page = htmlPage({
    title: 'a <b> & "c"',
    csp: "default-src 'none'",
    head: html`<link rel="stylesheet" href="${'x.css'}">`,
    body: html`<p>${'<i>'}</p>`,
    bodyAttrs: { class: 'a" onload="x' },
  });
  assert.ok(page.startsWith('<!DOCTYPE html>'));
  assert.ok(page.indexOf('Content-Security-Policy') < page.indexOf('<link'));
  assert.ok(page.includes(`content="default-src 'none'"`));
  assert.ok(page.includes('<title>a &lt;b&gt; &amp; &quot;c&quot;</title>'));
  assert.ok(page.includes('<body class="a&quot; onload=&quot;x">'));
  assert.ok(page.includes('<p>&lt;i&gt;</p>'));
  assert.throws(() => htmlPage({ title: '', csp: '', body: html``, bodyAttrs: { 'onload="x"': '' } }), /not an attribute name/);
});
