// The exported report in another display language: given the bundle (as the editor's Export
// Report passes vscode.l10n.bundle, with @vscode/l10n configured by the same), the report page and
// each transcript page carry it before their script, as the panels' pages do, and the words the
// report writes itself (its list of transcripts) are translated; links and numbers stay as they
// are. Without one (sweci report), no element and the English as before.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as l10n from '@vscode/l10n';
import { getL10nPseudoLocalized, type l10nJsonFormat } from '@vscode/l10n-dev';
import { reportHtml, transcriptPageHtml, type TranscriptLink } from '../../../src/core/report/report-html';
import type { L10nBundle } from '../../../src/shared/l10n-bundle';
import { repoRoot } from '../helpers/repo-root';

const LINKS: TranscriptLink[] = [
  { run: 'r1', iteration: 0, role: 'architect', try: 1, calls: 1, href: 'transcripts/r1/0-architect-1.html' },
  { run: 'r1', iteration: 2, role: 'programmer', try: 3, calls: 14, href: 'transcripts/r1/2-programmer-3.html' },
];
const PAGE = { title: 'report', script: 'void 0;', css: 'body{}', payload: { n: 1 } };

/** The pseudo-localized English bundle, flattened to the strings @vscode/l10n and the page take. */
function pseudoBundle(): L10nBundle {
  const english = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as l10nJsonFormat;
  const pseudo = getL10nPseudoLocalized(english);
  return Object.fromEntries(Object.entries(pseudo).map(([k, v]) => [k, typeof v === 'string' ? v : v.message]));
}

/** The transcript list's text, tags dropped. */
const listText = (page: string) => (/<section id="transcripts">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '').replace(/<[^>]+>/g, '|');
const bundleIn = (page: string) => /<script type="application\/json" id="sweci-l10n">([^<]*)<\/script>\n<script>/.exec(page)?.[1];

test('without a bundle the report reads English and carries no translations', () => {
  const page = reportHtml({ ...PAGE, transcripts: LINKS });
  assert.equal(bundleIn(page), undefined);
  assert.ok(!page.includes('sweci-l10n'));
  assert.equal(
    listText(page),
    '|Transcripts||What each agent did in each try: its model calls, tool calls and the files it wrote.|||r1: |base Architect| |(1 call)| · |#2 Programmer try 3| |(14 calls)|||',
  );
});

test('given a bundle, each page carries it before its script and the list is in its language with the same links and numbers', () => {
  const bundle = pseudoBundle();
  const english = reportHtml({ ...PAGE, transcripts: LINKS });
  l10n.config({ contents: bundle });
  try {
    const page = reportHtml({ ...PAGE, transcripts: LINKS, l10n: bundle });
    assert.deepEqual(JSON.parse(bundleIn(page) ?? 'null'), bundle, 'the report page carries the bundle, before its script');
    assert.deepEqual(JSON.parse(bundleIn(transcriptPageHtml({ ...PAGE, l10n: bundle })) ?? 'null'), bundle, 'and so does a transcript page');
    const [was, now] = [listText(english), listText(page)];
    for (const word of ['Transcripts', 'What each agent did', 'base', 'Architect', 'Programmer', 'try', 'call']) {
      assert.ok(was.includes(word) && !now.includes(word), `"${word}" is translated: ${now}`);
    }
    const hrefs = (p: string) => [...p.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(hrefs(page), hrefs(english));
    const numbers = (s: string) => s.match(/\d+/g) ?? [];
    assert.deepEqual(numbers(now), numbers(was));
  } finally {
    l10n.config({ contents: {} });
  }
});
