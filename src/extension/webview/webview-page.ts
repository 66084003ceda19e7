// The webviews' page: one external script (carrying the nonce) and one stylesheet from the
// extension under a strict CSP. The nonce and the CSP are made here and nowhere else. No VS Code
// API, so unit tests render it.
import { randomBytes } from 'node:crypto';
import { html, htmlPage, type SafeHtml } from '../../core/util/html';

export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

function webviewCsp(cspSource: string, nonce: string): string {
  return `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonce}'; font-src ${cspSource}`;
}

/** Where the page's resources are, as the panel's webview names them. */
export interface WebviewResources {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

/** What a page shows: its title and body (the script is added after the body). */
export interface WebviewContent {
  title: string;
  body: SafeHtml;
}

export function webviewPage(r: WebviewResources, content: WebviewContent): string {
  return htmlPage({
    title: content.title,
    csp: webviewCsp(r.cspSource, r.nonce),
    head: html`<link rel="stylesheet" href="${r.styleUri}">`,
    body: html`${content.body}
<script nonce="${r.nonce}" src="${r.scriptUri}"></script>`,
  });
}
