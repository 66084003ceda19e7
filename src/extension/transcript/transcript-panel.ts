// The Transcript panel's host: one panel showing one try's transcript at a time. It reads the
// try where it is now (pending/ while its iteration runs, then the archive), sends it to the
// webview, and sends it again when the change feed says the try's calls record grew (marked
// live while the step runs). The webview asks for a file change by call and tool index; the
// host finds it in the transcript it sent and opens it in the diff editor.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import * as messages from '../messages';
import { findTry, listTries, loadTranscript, type TryLocation, type TryRef } from '../../core/inspect/transcript-tries';
import type { Transcript } from '../../shared/transcript-schema';
import { fileChangeAt, fileChanges } from '../../shared/transcript-edits';
import { transcriptWebviewMessageSchema, type TranscriptHostMessage, type TranscriptWebviewMessage } from '../../shared/transcript-protocol';
import { errorMessage } from '../../core/util/errors';
import type { ChangeFeed } from '../change-feed';
import { log } from '../log';
import { WebviewHost } from '../webview/webview-host';
import type { TranscriptDocuments } from './transcript-documents';
import { tryLabel } from './pick-try';
import type { TaskFolder } from '../../core/workspace/task-folder';

export const TRANSCRIPT_VIEW_TYPE = 'sweci.transcript';

/** What the webview asks for (its `ready` is the host's). */
type PanelAction = Exclude<TranscriptWebviewMessage, { type: 'ready' }>;

/** The try shown, kept for a window reload. */
const keptSchema = z.strictObject({
  run: z.string().check(z.minLength(1)),
  iteration: z.int().check(z.minimum(0)),
  role: z.enum(['architect', 'programmer']),
  try: z.int().check(z.minimum(1)),
});

export interface TranscriptPanelDeps {
  extensionUri: vscode.Uri;
  /** The workspace's state: the try shown is kept there, to show it again after a window reload. */
  memento: vscode.Memento;
  task(): TaskFolder | undefined;
  feed: ChangeFeed;
  /** The run whose step is running in this window, if any. */
  runningRun(): string | undefined;
  documents: TranscriptDocuments;
}

export class TranscriptPanelHost implements vscode.Disposable {
  private readonly host: WebviewHost<TranscriptWebviewMessage, TranscriptHostMessage, Record<never, never>, TryRef>;
  private readonly subs: vscode.Disposable[] = [];
  private shownTry: TryLocation | undefined;
  private transcript: Transcript | undefined;
  /** The last message sent, as JSON: a refresh that reads the same is not sent again. */
  private sentJson: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: TranscriptPanelDeps) {
    this.host = new WebviewHost({
      extensionUri: deps.extensionUri,
      viewType: TRANSCRIPT_VIEW_TYPE,
      title: vscode.l10n.t('Transcript'),
      script: 'transcript.js',
      style: 'transcript.css',
      incoming: transcriptWebviewMessageSchema,
      replies: {},
      // A new page (opened, or reloaded after being hidden) has nothing yet.
      onReady: async () => {
        this.sentJson = undefined;
        const message = await this.message();
        if (message) this.sentJson = JSON.stringify(message);
        return message ? [message] : [];
      },
      onMessage: (m) => this.handle(m),
      onDidClose: () => {
        this.shownTry = undefined;
        this.transcript = undefined;
      },
      // After a window reload: the try it showed, read where it is now; one gone closes the panel.
      restore: {
        kept: { memento: deps.memento, schema: keptSchema },
        restore: async (ref) => {
          const why = await this.show(ref);
          if (why) throw new Error(why);
        },
      },
    });
    const refresh = () => this.scheduleRefresh();
    this.subs.push(this.host, deps.feed.onDidChangeRuns(refresh), deps.feed.onDidChangeCalls(refresh));
  }

  /** The try shown, while the panel is open. */
  get shown(): (TryLocation & { live: boolean }) | undefined {
    return this.host.isOpen && this.shownTry ? { ...this.shownTry, live: this.isLive(this.shownTry) } : undefined;
  }

  /** Opens the panel on a try; returns why not, if it cannot. */
  async show(ref: TryRef): Promise<string | undefined> {
    const dir = this.deps.task();
    if (!dir) return 'No SWE-CI task is open.';
    const at = await findTry(dir, ref);
    if (!at) return `${ref.run} #${ref.iteration} has no transcript of the ${tryLabel(ref)} (no model call went through the gateway).`;
    const transcript = await loadTranscript(dir, at);
    if (!transcript) return `The transcript of ${ref.run} #${ref.iteration}, ${tryLabel(ref)}, could not be read.`;
    this.shownTry = at;
    this.transcript = transcript;
    this.sentJson = undefined;
    this.host.keep({ run: at.run, iteration: at.iteration, role: at.role, try: at.try });
    this.host.show();
    await this.send();
    return undefined;
  }

  private isLive(at: TryLocation): boolean {
    return at.pending && this.deps.runningRun() === at.run;
  }

  /** Sends the try shown (the host holds it until the webview is ready for it); the same message is not sent twice. */
  private async send(): Promise<void> {
    const message = await this.message();
    if (!message) return;
    const json = JSON.stringify(message);
    if (json === this.sentJson) return;
    this.sentJson = json;
    this.host.post(message);
  }

  /** The try shown, as a message, titling the panel after it. */
  private async message(): Promise<TranscriptHostMessage | undefined> {
    const at = this.shownTry;
    const transcript = this.transcript;
    if (!at || !transcript) return undefined;
    const dir = this.deps.task();
    const tries = dir ? await listTries(dir, at.run) : [];
    const i = tries.findIndex((t) => t.iteration === at.iteration && t.role === at.role && t.try === at.try);
    const message: TranscriptHostMessage = {
      type: 'transcript',
      transcript,
      live: this.isLive(at),
      steps: { previous: i > 0, next: i >= 0 && i < tries.length - 1 },
    };
    this.host.setTitle(`Transcript: ${at.run} ${at.iteration === 0 ? 'base' : `#${at.iteration}`} ${tryLabel(at)}`);
    return message;
  }

  /** Reads the try again (its calls record grew, or its iteration was archived) and sends what changed. */
  private scheduleRefresh(): void {
    if (!this.host.isOpen || !this.shownTry) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), 100);
  }

  private async refresh(): Promise<void> {
    const dir = this.deps.task();
    const shown = this.shownTry;
    if (!dir || !shown) return;
    try {
      const at = await findTry(dir, shown);
      if (!at) return;
      const transcript = await loadTranscript(dir, at);
      if (!transcript || this.shownTry !== shown) return;
      this.shownTry = at;
      this.transcript = transcript;
      await this.send();
    } catch (err) {
      log().warn(`Transcript: ${errorMessage(err)}`);
    }
  }

  private async handle(m: PanelAction): Promise<void> {
    const why = await this.act(m).catch((err: unknown) => errorMessage(err));
    if (why) void messages.showInformationMessage(why);
  }

  private async act(m: PanelAction): Promise<string | undefined> {
    switch (m.type) {
      case 'open-diff':
      case 'open-file': {
        // Only what the transcript sent to the webview holds: a message names no path.
        const change = this.transcript && fileChangeAt(fileChanges(this.transcript), m.call, m.tool);
        if (!change) return `Call ${m.call} wrote no file with its tool call ${m.tool + 1}.`;
        const docs = this.deps.documents;
        const name = change.path.split(/[\\/]/).pop() ?? change.path;
        if (m.type === 'open-file') {
          await vscode.window.showTextDocument(docs.document(change.path, change.after), { preview: true });
          return undefined;
        }
        const what = change.kind === 'write' ? (change.before === '' ? 'written' : 'rewritten') : change.whole ? 'edited' : 'edited (the changed parts)';
        await vscode.commands.executeCommand(
          'vscode.diff',
          docs.document(change.path, change.before),
          docs.document(change.path, change.after),
          `${name}: ${what} by call ${m.call}`,
          { preview: true },
        );
        return undefined;
      }
      case 'step': {
        const dir = this.deps.task();
        const at = this.shownTry;
        if (!dir || !at) return undefined;
        const tries = await listTries(dir, at.run);
        const i = tries.findIndex((t) => t.iteration === at.iteration && t.role === at.role && t.try === at.try);
        const to = tries[i + m.direction];
        if (i < 0 || !to) return m.direction > 0 ? 'This is the run’s last try with a transcript.' : 'This is the run’s first try with a transcript.';
        return this.show(to);
      }
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
  }
}
