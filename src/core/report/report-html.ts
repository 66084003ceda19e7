// The exported report's HTML: everything inlined (the chart bundle, its CSS, the data as JSON)
// under a CSP that forbids every network request, so the file renders the same offline; and, as
// pages beside it, each try's transcript (the Transcript panel's bundle, run the same way).
// Given the display language's bundle, a page carries it as the webviews' pages do, so its script
// shows the panel's text in that language; the few words written here go through @vscode/l10n,
// which the extension host configures with the same bundle (the CLI never does: English).
import * as l10n from '@vscode/l10n';
import type { L10nBundle } from '../../shared/l10n-bundle';
import { html, htmlPage, jsonInScript, rawHtml, type SafeHtml } from '../util/html';
import { l10nElement } from '../util/l10n-element';

/** Inline text may not close its element early: `</script` (or `</style`) is split. */
function inlineSafe(text: string, tag: 'script' | 'style'): SafeHtml {
  return rawHtml(text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1'));
}

/** A link from the report to one try's transcript page. */
export interface TranscriptLink {
  run: string;
  iteration: number;
  role: 'architect' | 'programmer';
  try: number;
  calls: number;
  /** Relative to the report. */
  href: string;
}

/** A try as the report's list names it: "base Architect", "#2 Programmer try 3". */
function tryName(l: Pick<TranscriptLink, 'iteration' | 'role' | 'try'>): string {
  const role = l.role === 'architect' ? l10n.t('Architect') : l10n.t('Programmer');
  const at = l.iteration === 0 ? l10n.t('base {0}', role) : l10n.t('#{0} {1}', l.iteration, role);
  return l.try > 1 ? l10n.t('{0} try {1}', at, l.try) : at;
}

/** The report's list of transcripts, under the chart: one line per try, grouped by run. */
function transcriptList(links: readonly TranscriptLink[]): SafeHtml | '' {
  if (links.length === 0) return '';
  const runs = [...new Set(links.map((l) => l.run))];
  const items = runs.map(
    (run) =>
      html`<li>${run}: ${links
        .filter((l) => l.run === run)
        .map(
          (l, i) =>
            html`${i ? ' · ' : ''}<a href="${l.href}">${tryName(l)}</a> <span class="note">${l.calls === 1 ? l10n.t('(1 call)') : l10n.t('({0} calls)', l.calls)}</span>`,
        )}</li>`,
  );
  return html`<section id="transcripts"><h2>${l10n.t('Transcripts')}</h2><p class="note">${l10n.t('What each agent did in each try: its model calls, tool calls and the files it wrote.')}</p><ul>${items}</ul></section>`;
}

/**
 * One offline page: a bundle run standalone on the JSON payload in `#<dataId>`. 'unsafe-inline'
 * is needed because everything is inline; default-src 'none' still blocks every request, so the
 * file renders the same offline as online.
 */
export function standalonePage(opts: {
  title: string;
  script: string;
  css: string;
  payload: unknown;
  dataId: string;
  after?: SafeHtml | '';
  /** The display language's translations (none: the page's English). */
  l10n?: L10nBundle;
}): string {
  return htmlPage({
    title: opts.title,
    csp: "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
    head: html`<style>
${inlineSafe(opts.css, 'style')}
</style>`,
    bodyAttrs: { class: 'sweci-standalone' },
    body: html`<div id="app"></div>${opts.after ?? ''}
<script type="application/json" id="${opts.dataId}">${jsonInScript(opts.payload)}</script>
${l10nElement(opts.l10n)}<script>
${inlineSafe(opts.script, 'script')}
</script>`,
  });
}

export function reportHtml(opts: {
  title: string;
  script: string;
  css: string;
  payload: unknown;
  transcripts?: readonly TranscriptLink[];
  l10n?: L10nBundle;
}): string {
  return standalonePage({ ...opts, dataId: 'sweci-report-data', after: transcriptList(opts.transcripts ?? []) });
}

/** One try's transcript page (the Transcript panel's bundle, standalone). */
export function transcriptPageHtml(opts: { title: string; script: string; css: string; payload: unknown; l10n?: L10nBundle }): string {
  return standalonePage({ ...opts, dataId: 'sweci-transcript-data' });
}
