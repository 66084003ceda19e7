// The translations a webview page is handed: the extension's l10n bundle for VS Code's display
// language (vscode.l10n.bundle; none for English), written by the webview host into the page as
// a JSON element that the page reads before it builds any text (webview-ui/l10n-config.ts). In
// the page, not in a message: a page builds some of its text before its first message arrives.
// Browser-safe.
import * as z from 'zod/mini';

/** The id of the page's `<script type="application/json">` holding the bundle. */
export const L10N_ELEMENT_ID = 'sweci-l10n';

/** A bundle as @vscode/l10n takes it: the English message → its translation. */
export const l10nBundleSchema = z.record(z.string(), z.string());
export type L10nBundle = z.infer<typeof l10nBundleSchema>;
