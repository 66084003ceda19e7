// The exported report's HTML: everything inlined (the chart bundle, its CSS, the data as JSON)
// under a CSP that forbids every network request, so the file renders the same offline.

/** Inline text may not close its element early: `</script` (or `</style`) is split. */
function inlineSafe(text: string, tag: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');
}

/** A JSON payload inside <script type="application/json">: `<` escaped so no tag can be formed. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function reportHtml(opts: { title: string; script: string; css: string; payload: unknown }): string {
  // 'unsafe-inline' is needed because everything is inline; default-src 'none' still blocks
  // every request, so the file renders the same offline as online.
  const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeText(opts.title)}</title>
<style>
${inlineSafe(opts.css, 'style')}
</style>
</head>
<body class="sweci-standalone">
<div id="app"></div>
<script type="application/json" id="sweci-report-data">${jsonInScript(opts.payload)}</script>
<script>
${inlineSafe(opts.script, 'script')}
</script>
</body>
</html>
`;
}

export function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}
