// The one webview host: creates or reveals a panel (or adopts one VS Code restored), sets its
// page (webview-page.ts: CSP, nonce, script and stylesheet; the script builds the content),
// parses every message the webview sends against the protocol's schema before anything acts on
// it, posts typed messages back (a reply carrying its request's id) and disposes of it all. The
// chart, the iteration view and the Transcript panel are all built on it.
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import { BASE_STYLE } from '../../core/report/panel-assets';
import { errorMessage } from '../../core/util/errors';
import { log } from '../log';
import { makeNonce, webviewPage } from './webview-page';

type Message = { type: string };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Watches every webview host: what it was built for, the pages it set and the messages both ways. */
export interface WebviewObserver {
  /** A host was made (its viewType names it): `receive` hands it a message as if its webview sent it. */
  created?(viewType: string, host: { receive(raw: unknown): Promise<void> }): void;
  /** A page was set in the panel. */
  page?(viewType: string, html: string): void;
  posted?(viewType: string, message: unknown): void;
  /**
   * A message from the webview; `accepted`: whether the protocol's schema took it. Returning true
   * for a refused one says the observer understood it (it is then not logged as malformed).
   */
  received?(viewType: string, message: unknown, accepted: boolean): boolean | void;
}

let observer: WebviewObserver | undefined;

/** Sets (or, with undefined, removes) the one observer of the webview hosts made from now on. */
export function observeWebviews(next: WebviewObserver | undefined): void {
  observer = next;
}

export interface WebviewHostOptions<In extends Message, Out extends Message, Replies extends Partial<Record<In['type'], Out['type']>>> {
  extensionUri: vscode.Uri;
  viewType: string;
  /** The panel's title until the panel sets one (setTitle); also names the view in the log. */
  title: string;
  /** The webview's bundle, in dist/, and its stylesheet, in media/. */
  script: string;
  style: string;
  /** What the webview may send; anything else is dropped (and logged). */
  incoming: z.ZodMiniType<In>;
  /** Which message answers which request (see reply); only the types matter. */
  replies: Replies;
  /** Called with each message that parsed. A failure is logged. */
  onMessage(message: In): Promise<void> | void;
  /** A new panel keeps the focus where it was (the view the user steps in). */
  preserveFocus?: boolean;
  /** Called when the panel closes. */
  onDidClose?(): void;
}

export class WebviewHost<In extends Message, Out extends Message, Replies extends Partial<Record<In['type'], Out['type']>>> implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private panelSubs: vscode.Disposable[] = [];

  constructor(private readonly opts: WebviewHostOptions<In, Out, Replies>) {
    observer?.created?.(opts.viewType, this);
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Opens the panel, or reveals it (its page stays as it is: what it shows comes as messages). */
  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, this.opts.preserveFocus ?? false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      this.opts.viewType,
      this.opts.title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: this.opts.preserveFocus ?? false },
      { enableScripts: true, retainContextWhenHidden: false },
    );
    this.adopt(panel);
  }

  /** Takes over a panel (one VS Code restored after a window reload), closing any other. */
  adopt(panel: vscode.WebviewPanel): void {
    const old = this.panel;
    if (old && old !== panel) {
      this.panel = undefined;
      for (const s of this.panelSubs.splice(0)) s.dispose();
      old.dispose();
    }
    this.panel = panel;
    const root = this.opts.extensionUri;
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(root, 'dist'), vscode.Uri.joinPath(root, 'media')],
    };
    panel.iconPath = vscode.Uri.joinPath(root, 'media', 'sweci.svg');
    this.panelSubs.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      panel.onDidDispose(() => {
        if (this.panel !== panel) return;
        this.panel = undefined;
        for (const s of this.panelSubs.splice(0)) s.dispose();
        this.opts.onDidClose?.();
      }),
    );
    panel.title = this.opts.title;
    this.setPage(panel);
  }

  /** Sets the page (a new nonce each time). */
  private setPage(panel: vscode.WebviewPanel): void {
    const root = this.opts.extensionUri;
    const page = webviewPage(
      {
        cspSource: panel.webview.cspSource,
        nonce: makeNonce(),
        scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', this.opts.script)).toString(),
        baseStyleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', BASE_STYLE)).toString(),
        styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', this.opts.style)).toString(),
      },
      this.opts.title,
    );
    panel.webview.html = page;
    observer?.page?.(this.opts.viewType, page);
  }

  /** Renames the panel (its page stays as it is). */
  setTitle(title: string): void {
    if (this.panel) this.panel.title = title;
  }

  /** Parses one message from the webview and hands it on. */
  async receive(raw: unknown): Promise<void> {
    const parsed = this.opts.incoming.safeParse(raw);
    if (!parsed.success) {
      if (observer?.received?.(this.opts.viewType, raw, false) !== true) {
        log().warn(`${this.opts.title}: ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      }
      return;
    }
    const message = parsed.data;
    observer?.received?.(this.opts.viewType, message, true);
    try {
      await this.opts.onMessage(message);
    } catch (err) {
      log().error(`${this.opts.title}: ${message.type} failed: ${errorMessage(err)}`);
    }
  }

  /** Sends a message to the webview, if it is open. */
  post(message: Out): void {
    if (!this.panel) return;
    observer?.posted?.(this.opts.viewType, message);
    void this.panel.webview.postMessage(message);
  }

  /** Answers a request: the reply its protocol pairs with it, carrying its id. */
  reply<Q extends Extract<In, { type: keyof Replies; requestId: number }>>(
    request: Q,
    answer: DistributiveOmit<Extract<Out, { type: Replies[Q['type']] }>, 'requestId'>,
  ): void {
    this.post({ ...answer, requestId: request.requestId } as unknown as Out);
  }

  dispose(): void {
    this.panel?.dispose();
    for (const s of this.panelSubs.splice(0)) s.dispose();
  }
}
