// Where "show me the exported report" can take the user. revealFileInOS needs a desktop VS Code
// on the machine that has the file. A browser (code-server, vscode.dev) or a remote window has no
// file manager for it, and its editor shows report.html as source: there the report is opened in
// the person's browser, or downloaded, through a loopback server the editor forwards
// (report-browser.ts); the Explorer shows it when the workspace holds it, else its path is copied.
export type RevealAction =
  | { label: 'Reveal Folder'; command: 'revealFileInOS' }
  | { label: 'Open in Browser'; command: 'browser' }
  | { label: 'Download'; command: 'download' }
  | { label: 'Show in Explorer'; command: 'revealInExplorer' }
  | { label: 'Copy Path'; command: 'copy' };

// The labels are the actions' English names, which tests read; export-command shows each through
// vscode.l10n.t (revealLabel), so they are not the text on the buttons.
/* eslint-disable sweci/no-inline-ui-string */
export function revealActions(where: { desktop: boolean; remote: boolean; insideWorkspace: boolean }): RevealAction[] {
  if (where.desktop && !where.remote) return [{ label: 'Reveal Folder', command: 'revealFileInOS' }];
  return [
    { label: 'Open in Browser', command: 'browser' },
    { label: 'Download', command: 'download' },
    where.insideWorkspace ? { label: 'Show in Explorer', command: 'revealInExplorer' } : { label: 'Copy Path', command: 'copy' },
  ];
}
/* eslint-enable sweci/no-inline-ui-string */

/**
 * What the toast still offers once `done` was taken: opening the page in a browser or copying the
 * path leaves the person wanting the rest (Download most of all), so the toast comes back without
 * it; the others end it.
 */
export function actionsAfter(actions: readonly RevealAction[], done: RevealAction): RevealAction[] {
  return done.command === 'browser' || done.command === 'copy' ? actions.filter((a) => a.command !== done.command) : [];
}
