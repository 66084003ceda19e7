// The webviews' page: one external script (carrying the nonce) and two stylesheets from the
// extension (the one every webview shares, then the panel's own) under a strict CSP, around an
// empty element the script builds the panel in, with the display language's translations as
// JSON (a data element: nothing runs it). The
// host builds no panel's content: it sends data. The nonce and the CSP are made here and nowhere
// else. No VS Code API, so unit tests render it.
import { randomBytes } from 'node:crypto';
import { html, htmlPage } from '../../core/util/html';
import { l10nElement } from '../../core/util/l10n-element';
import type { L10nBundle } from '../../shared/l10n-bundle';

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
  /** media/webview-base.css, which every panel shares. */
  baseStyleUri: string;
  styleUri: string;
  /** The translations for the display language (vscode.l10n.bundle); none: the page's English. */
  l10n?: L10nBundle;
}

/** Every panel's page: `#app`, which the panel's script fills from what its host sends. */
export function webviewPage(r: WebviewResources, title: string): string {
  return htmlPage({
    title,
    csp: webviewCsp(r.cspSource, r.nonce),
    head: html`<link rel="stylesheet" href="${r.baseStyleUri}">
<link rel="stylesheet" href="${r.styleUri}">`,
    body: html`<div id="app"></div>
${l10nElement(r.l10n)}<script nonce="${r.nonce}" src="${r.scriptUri}"></script>`,
  });
}
