// The display language's translations as a page carries them (src/shared/l10n-bundle.ts): a JSON
// data element placed before the page's script, which reads it as it loads
// (webview-ui/l10n-config.ts). One writer for the webviews' pages and the exported report's.
// Nothing for English: l10n.t then gives the English it is called with.
import { L10N_ELEMENT_ID, type L10nBundle } from '../../shared/l10n-bundle';
import { html, jsonInScript, type SafeHtml } from './html';

export function l10nElement(bundle: L10nBundle | undefined): SafeHtml | '' {
  return bundle ? html`<script type="application/json" id="${L10N_ELEMENT_ID}">${jsonInScript(bundle)}</script>\n` : '';
}
