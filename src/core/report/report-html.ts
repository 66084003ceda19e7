// The exported report's HTML: everything inlined (the chart bundle, its CSS, the data as JSON)
// under a CSP that forbids every network request, so the file renders the same offline; and, as
// pages beside it, each try's transcript (the Transcript panel's bundle, run the same way).
import { html, htmlPage, jsonInScript, rawHtml, type SafeHtml } from '../util/html';

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
            html`${i ? ' · ' : ''}<a href="${l.href}">${l.iteration === 0 ? 'base' : `#${l.iteration}`} ${l.role === 'architect' ? 'Architect' : 'Programmer'}${l.try > 1 ? ` try ${l.try}` : ''}</a> <span class="note">(${l.calls} call${l.calls === 1 ? '' : 's'})</span>`,
        )}</li>`,
  );
  return html`<section id="transcripts"><h2>Transcripts</h2><p class="note">What each agent did in each try: its model calls, tool calls and the files it wrote.</p><ul>${items}</ul></section>`;
}

/**
 * One offline page: a bundle run standalone on the JSON payload in `#<dataId>`. 'unsafe-inline'
 * is needed because everything is inline; default-src 'none' still blocks every request, so the
 * file renders the same offline as online.
 */
export function standalonePage(opts: { title: string; script: string; css: string; payload: unknown; dataId: string; after?: SafeHtml | '' }): string {
  return htmlPage({
    title: opts.title,
    csp: "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
    head: html`<style>
${inlineSafe(opts.css, 'style')}
</style>`,
    bodyAttrs: { class: 'sweci-standalone' },
    body: html`<div id="app"></div>${opts.after ?? ''}
<script type="application/json" id="${opts.dataId}">${jsonInScript(opts.payload)}</script>
<script>
${inlineSafe(opts.script, 'script')}
</script>`,
  });
}

export function reportHtml(opts: { title: string; script: string; css: string; payload: unknown; transcripts?: readonly TranscriptLink[] }): string {
  return standalonePage({ ...opts, dataId: 'sweci-report-data', after: transcriptList(opts.transcripts ?? []) });
}

/** One try's transcript page (the Transcript panel's bundle, standalone). */
export function transcriptPageHtml(opts: { title: string; script: string; css: string; payload: unknown }): string {
  return standalonePage({ ...opts, dataId: 'sweci-transcript-data' });
}
