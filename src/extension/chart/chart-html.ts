// The HTML documents of the chart: the webview's (external script and stylesheet from the
// extension, strict CSP with a nonce) and the exported report's (everything inlined, a CSP
// that forbids every network request). No vscode import: the report is written without it.
import { randomBytes } from 'node:crypto';

export function makeNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

export function webviewCsp(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonce}'; font-src ${cspSource}`;
}

export function webviewHtml(opts: { cspSource: string; nonce: string; scriptUri: string; styleUri: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${webviewCsp(opts.cspSource, opts.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(opts.styleUri)}">
<title>SWE-CI Chart</title>
</head>
<body>
<div id="app"></div>
<script nonce="${opts.nonce}" src="${escapeAttr(opts.scriptUri)}"></script>
</body>
</html>
`;
}

/** Inline text may not close its element early: `</script` (or `</style`) is split. */
function inlineSafe(text: string, tag: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');
}

/** A JSON payload inside <script type="application/json">: `<` escaped so no tag can be formed. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
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

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}
