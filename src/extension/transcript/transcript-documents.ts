// Read-only documents for what a transcript says a file was before and after a tool call wrote
// it: `sweci-transcript:/<n>/<file name>`, their text held in memory (the transcript is the only
// source: the agent's sandbox paths are gone once the try ends). A document opened this way
// cannot be edited or saved by mistake. The last few hundred are kept.
import * as path from 'node:path';
import * as vscode from 'vscode';

export const TRANSCRIPT_SCHEME = 'sweci-transcript';
const KEEP = 200;

export class TranscriptDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private next = 1;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, this);

  /** A document holding `text`, named like `file` (its extension picks the language). */
  document(file: string, text: string): vscode.Uri {
    const base = path.posix.basename(file.replace(/\\/g, '/')) || 'file';
    const uri = vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${this.next++}/${base}` });
    this.texts.set(uri.path, text);
    for (const key of this.texts.keys()) {
      if (this.texts.size <= KEEP) break;
      this.texts.delete(key);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
