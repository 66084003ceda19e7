// The chart webview's HTML document: external script and stylesheet from the extension, a
// strict CSP with a nonce. (The exported report's document is core/report/report-html.ts.)
import { randomBytes } from 'node:crypto';
import { escapeAttr } from '../../core/report/report-html';

export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
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
