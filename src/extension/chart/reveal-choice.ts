// Where "show me the exported report" can take the user. revealFileInOS needs a desktop VS Code
// on the machine that has the file; a browser (code-server, vscode.dev) or a remote window has
// no file manager for it, so the report is shown in the Explorer (when the workspace holds it)
// and its path can be copied.
export type RevealAction =
  { label: 'Reveal Folder'; command: 'revealFileInOS' } | { label: 'Show in Explorer'; command: 'revealInExplorer' } | { label: 'Copy Path'; command: 'copy' };

export function revealActions(where: { desktop: boolean; remote: boolean; insideWorkspace: boolean }): RevealAction[] {
  if (where.desktop && !where.remote) return [{ label: 'Reveal Folder', command: 'revealFileInOS' }];
  return [...(where.insideWorkspace ? [{ label: 'Show in Explorer', command: 'revealInExplorer' } as const] : []), { label: 'Copy Path', command: 'copy' }];
}
