// Where Check Agents shows its result: one read-only document, `sweci-check:/Check Agents.md`,
// opened as its Markdown preview, refreshed in place by each check (an untitled buffer per check would pile up and ask to be
// saved when the window closes).
import * as vscode from 'vscode';

export const CHECK_SCHEME = 'sweci-check';
export const CHECK_URI = vscode.Uri.from({ scheme: CHECK_SCHEME, path: '/Check Agents.md' });
export const CHECK_TITLE = '# SWE-CI: Check Agents';

export class CheckDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private text = `${CHECK_TITLE}\n\nNo check has run in this window yet: run **SWE-CI: Check Agents**.\n`;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(CHECK_SCHEME, this);

  provideTextDocumentContent(): string {
    return this.text;
  }

  /** Replaces the text; an editor showing it follows. */
  set(body: string): void {
    this.text = `${CHECK_TITLE}\n\n${body.trimEnd()}\n`;
    this.changed.fire(CHECK_URI);
  }

  /** Rendered, as it is meant to be read (the preview's Open Source shows the Markdown); the source where there is no Markdown preview. */
  async show(): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(CHECK_URI);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
    } catch {
      await vscode.window.showTextDocument(doc, { preview: true });
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
