// Configures @vscode/l10n with the translations the host wrote into the page (src/shared/
// l10n-bundle.ts) before any other module builds text: each entry imports this first. Without
// them (English, or an exported report's page) l10n.t gives the English it is called with.
import * as l10n from '@vscode/l10n';
import { L10N_ELEMENT_ID, l10nBundleSchema } from '../src/shared/l10n-bundle';

const element = document.getElementById(L10N_ELEMENT_ID);
if (element?.textContent) {
  try {
    const bundle = l10nBundleSchema.safeParse(JSON.parse(element.textContent));
    if (bundle.success) l10n.config({ contents: bundle.data });
    else console.warn('SWE-CI: the page’s translations are malformed; showing English');
  } catch {
    console.warn('SWE-CI: the page’s translations are not JSON; showing English');
  }
}
