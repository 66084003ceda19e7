// The exported report's HTML: everything inlined (the chart bundle, its CSS, the data as JSON)
// under a CSP that forbids every network request, so the file renders the same offline.
import { html, htmlPage, rawHtml, type SafeHtml } from '../util/html';

/** Inline text may not close its element early: `</script` (or `</style`) is split. */
function inlineSafe(text: string, tag: 'script' | 'style'): SafeHtml {
  return rawHtml(text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1'));
}

/** A JSON payload inside <script type="application/json">: `<` escaped so no tag can be formed. */
function jsonInScript(value: unknown): SafeHtml {
  return rawHtml(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}

export function reportHtml(opts: { title: string; script: string; css: string; payload: unknown }): string {
  return htmlPage({
    title: opts.title,
    // 'unsafe-inline' is needed because everything is inline; default-src 'none' still blocks
    // every request, so the file renders the same offline as online.
    csp: "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
    head: html`<style>
${inlineSafe(opts.css, 'style')}
</style>`,
    bodyAttrs: { class: 'sweci-standalone' },
    body: html`<div id="app"></div>
<script type="application/json" id="sweci-report-data">${jsonInScript(opts.payload)}</script>
<script>
${inlineSafe(opts.script, 'script')}
</script>`,
  });
}
