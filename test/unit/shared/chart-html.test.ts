import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeNonce, webviewPage } from '../../../src/extension/webview/webview-page';
import { metricsCsv } from '../../../src/core/report/export-report';
import { reportHtml } from '../../../src/core/report/report-html';

test('the webview CSP allows only the nonce’d script and the webview’s own sources', () => {
  const csp = "default-src 'none'; img-src vscode-webview://abc data:; style-src vscode-webview://abc; script-src 'nonce-N0NCE'; font-src vscode-webview://abc";
  const resources = {
    cspSource: 'vscode-webview://abc',
    nonce: 'N0NCE',
    scriptUri: 'vscode-webview://abc/dist/webview.js',
    baseStyleUri: 'vscode-webview://abc/media/webview-base.css',
    styleUri: 'vscode-webview://abc/media/chart.css',
  };
  const page = webviewPage(resources, 'SWE-CI Chart');
  assert.match(page, /<body>\n<div id="app"><\/div>\n<script /, 'an empty element the script builds the panel in, nothing the host wrote');
  assert.match(page, /<script nonce="N0NCE" src="vscode-webview:\/\/abc\/dist\/webview.js"><\/script>/);
  assert.ok(page.includes(`content="${csp}"`), 'the CSP in its meta element');
  // The shared stylesheet first, then the panel's own, which may override it.
  assert.ok(
    page.includes(
      '<link rel="stylesheet" href="vscode-webview://abc/media/webview-base.css">\n<link rel="stylesheet" href="vscode-webview://abc/media/chart.css">',
    ),
  );
  assert.ok(!page.includes('unsafe-inline'));
  assert.match(page, /<body>/, 'the page body carries no marks');
});

test('a display language’s translations ride in the page as JSON nothing runs, and cannot close their element', () => {
  const resources = {
    cspSource: 'vscode-webview://abc',
    nonce: 'N0NCE',
    scriptUri: 'vscode-webview://abc/dist/webview.js',
    baseStyleUri: 'vscode-webview://abc/media/webview-base.css',
    styleUri: 'vscode-webview://abc/media/chart.css',
  };
  const bundle = { Runs: 'Läufe', 'Exported to {0}': '</script><script>alert(1)</script> {0}' };
  const page = webviewPage({ ...resources, l10n: bundle }, 'SWE-CI Chart');
  const m = /<script type="application\/json" id="sweci-l10n">([^<]*)<\/script>\n<script nonce="N0NCE"/.exec(page);
  assert.ok(m, 'the bundle before the page’s script, which reads it first');
  assert.deepEqual(JSON.parse(m[1]), bundle);
  assert.equal(page.match(/<script/g)?.length, 2, 'no script element made by the bundle');
  // English: no element at all (l10n.t gives the English it is called with).
  assert.ok(!webviewPage(resources, 'SWE-CI Chart').includes('sweci-l10n'));
});

test('nonces are long, alphanumeric and new each time', () => {
  const a = makeNonce();
  assert.match(a, /^[A-Za-z0-9]{16,}$/);
  assert.notEqual(a, makeNonce());
});

test('the report inlines script, style and data without letting them close their element', () => {
  const html = reportHtml({
    title: 'a <b>',
    script: 'const s = "</script><img src=x>";',
    css: 'body{}</style>',
    payload: { note: '</script><script>alert(1)</script>' },
  });
  assert.equal(html.match(/<\/script>/g)?.length, 2, 'only the two real script elements close');
  assert.equal(html.match(/<\/style>/g)?.length, 1);
  assert.ok(html.includes('<title>a &lt;b&gt;</title>'));
  const json = /<script type="application\/json" id="sweci-report-data">([\s\S]*?)<\/script>/.exec(html)![1];
  assert.deepEqual(JSON.parse(json), { note: '</script><script>alert(1)</script>' });
  assert.match(html, /default-src 'none'/, 'the report itself forbids network requests');
  assert.ok(!/\b(?:src|href)="https?:/.test(html));
});

test('the metrics CSV quotes what needs it and leaves unknown values empty', () => {
  const csv = metricsCsv([
    {
      run: 'r,1',
      kind: 'agent',
      label: 'say "hi"',
      gamma: 1,
      evoscore_gamma: 0.5,
      evoscore_1: null,
      solved: false,
      zero_regression: true,
      regressions: 0,
      final_a: null,
      iterations: 3,
      tokens_in: 10,
      tokens_out: 2,
      time_sec: 1.5,
      score_flags: 'inflated harness-tampering',
    },
  ]);
  assert.equal(
    csv,
    'run,kind,label,gamma,evoscore_gamma,evoscore_1,solved,zero_regression,regressions,final_a,iterations,tokens_in,tokens_out,time_sec,score_flags\n"r,1",agent,"say ""hi""",1,0.5,,false,true,0,,3,10,2,1.5,inflated harness-tampering\n',
  );
});
