// The one webview host: creates or reveals a panel (or adopts one VS Code restored), sets its
// page (webview-page.ts: CSP, nonce, script and stylesheet; the script builds the content),
// parses every message the webview sends against the protocol's schema before anything acts on
// it, posts typed messages back (a reply carrying its request's id) and disposes of it all. It
// owns the page's `ready` handshake: a new page gets the panel's onReady messages first, and
// what was posted before the page was ready waits for it (page-queue.ts). It also brings its
// panel back after Developer: Reload Window: it registers the view type's serializer, keeps what
// the panel shows in the workspace's state (keep) and hands it back to the panel's restore. All
// four panels (the chart, the iteration view, the Transcript panel, the Leaderboard) are built on
// it, so each comes back the same way.
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import { BASE_STYLE } from '../../core/report/panel-assets';
import { errorMessage } from '../../core/util/errors';
import { showError } from '../errors';
import { log } from '../log';
import { PageQueue } from './page-queue';
import { makeNonce, webviewPage } from './webview-page';

type Message = { type: string };
type Ready = { type: 'ready' };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Watches every webview host: what it was built for, the pages it set and the messages both ways. */
export interface WebviewObserver {
  /** A host was made (its viewType names it): `receive` hands it a message as if its webview sent it. */
  created?(viewType: string, host: { receive(raw: unknown): Promise<void> }): void;
  /** A page was set in the panel. */
  page?(viewType: string, html: string): void;
  /** A message was handed to the page (one posted before the page was ready: once it was). */
  posted?(viewType: string, message: unknown): void;
  /**
   * A message from the webview; `accepted`: whether the protocol's schema took it. Returning true
   * for a refused one says the observer understood it (it is then not logged as malformed).
   */
  received?(viewType: string, message: unknown, accepted: boolean): boolean | void;
  /** What the panel keeps for a window reload changed. */
  kept?(viewType: string, kept: unknown): void;
}

let observer: WebviewObserver | undefined;

/** Sets (or, with undefined, removes) the one observer of the webview hosts made from now on. */
export function observeWebviews(next: WebviewObserver | undefined): void {
  observer = next;
}

/** How a panel comes back after a window reload (VS Code recreates it and asks the view type's serializer). */
export interface PanelRestore<Kept> {
  /**
   * What the panel shows, kept in `memento` (the workspace's state) by the host's keep() and read
   * back through `schema` (a value of another version, or edited by hand, is not trusted). With
   * nothing readable kept the restored panel closes. Without this, restore gets undefined.
   */
  kept?: { memento: vscode.Memento; schema: z.ZodMiniType<Kept> };
  /** Fills the panel (the host has adopted it) with what was kept; a failure closes it and is shown. */
  restore(kept: Kept): Promise<void> | void;
}

export interface WebviewHostOptions<In extends Message, Out extends Message, Replies extends Partial<Record<In['type'], Out['type']>>, Kept = undefined> {
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
  /**
   * The page said `ready` (it starts empty: just opened, restored after a window reload, or shown
   * again after being hidden): the messages that bring it up to date. They go before anything
   * posted while it loaded. A failure is logged and the page gets only what was posted.
   */
  onReady(): Promise<readonly Out[]> | readonly Out[];
  /** Types of message that onReady's messages make stale: one posted while the page loaded is dropped. */
  replacedOnReady?: readonly Out['type'][];
  /** Called with each other message that parsed. A failure is logged. */
  onMessage(message: Exclude<In, Ready>): Promise<void> | void;
  /** A new panel keeps the focus where it was (the view the user steps in). */
  preserveFocus?: boolean;
  /** Called when the panel closes. */
  onDidClose?(): void;
  /** Every panel comes back after a window reload; this says with what. */
  restore: PanelRestore<Kept>;
}

export class WebviewHost<In extends Message, Out extends Message, Replies extends Partial<Record<In['type'], Out['type']>>, Kept = undefined>
  implements vscode.Disposable
{
  private panel: vscode.WebviewPanel | undefined;
  private panelSubs: vscode.Disposable[] = [];
  private readonly serializer: vscode.Disposable;
  private readonly queue = new PageQueue<Out>((m) => this.deliver(m));
  /** Counts the pages' `ready`s: a page that reloads while onReady runs makes that run's messages moot. */
  private readies = 0;

  constructor(private readonly opts: WebviewHostOptions<In, Out, Replies, Kept>) {
    observer?.created?.(opts.viewType, this);
    // Registered at activation (the manifest's onWebviewPanel:<viewType> activates the extension
    // for a panel to restore), so VS Code finds it when it brings the panel back.
    this.serializer = vscode.window.registerWebviewPanelSerializer(opts.viewType, {
      deserializeWebviewPanel: (panel) => this.restore(panel),
    });
  }

  /** Keeps what the panel shows, for the panel to show it again after a window reload. */
  keep(kept: Kept): void {
    const memento = this.opts.restore.kept?.memento;
    if (!memento) return;
    void memento.update(keptKey(this.opts.viewType), kept);
    observer?.kept?.(this.opts.viewType, kept);
  }

  /** A panel VS Code brought back after a window reload: adopted, then filled with what was kept. */
  private async restore(panel: vscode.WebviewPanel): Promise<void> {
    const { kept } = this.opts.restore;
    let value: Kept | undefined;
    if (kept) {
      const parsed = kept.schema.safeParse(kept.memento.get(keptKey(this.opts.viewType)));
      if (!parsed.success) {
        log().info(`${this.opts.title}: nothing kept to show after the reload; closed the panel`);
        panel.dispose();
        return;
      }
      value = parsed.data;
    }
    this.adopt(panel);
    try {
      // Without `kept` the panel's restore takes undefined (Kept's default).
      await this.opts.restore.restore(value as Kept);
    } catch (err) {
      if (this.panel === panel) panel.dispose();
      showError(this.opts.title, err);
    }
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
  private adopt(panel: vscode.WebviewPanel): void {
    const old = this.panel;
    if (old && old !== panel) {
      this.panel = undefined;
      for (const s of this.panelSubs.splice(0)) s.dispose();
      old.dispose();
    }
    this.panel = panel;
    this.queue.closed();
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
        this.queue.closed();
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
        ...(vscode.l10n.bundle ? { l10n: vscode.l10n.bundle } : {}),
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
    if (isReady(message)) return this.pageReady();
    try {
      // A union member other than `ready` (TypeScript does not narrow a type parameter).
      await this.opts.onMessage(message as Exclude<In, Ready>);
    } catch (err) {
      log().error(`${this.opts.title}: ${message.type} failed: ${errorMessage(err)}`);
    }
  }

  /** A page loaded: what was posted meanwhile waits until onReady's messages have gone. */
  private async pageReady(): Promise<void> {
    const n = ++this.readies;
    this.queue.loading();
    let first: readonly Out[] = [];
    try {
      first = await this.opts.onReady();
    } catch (err) {
      log().error(`${this.opts.title}: ready failed: ${errorMessage(err)}`);
    }
    if (n === this.readies && this.panel) this.queue.open(first, this.opts.replacedOnReady);
  }

  /** Sends a message to the webview, if it is open; before its page is ready, once it is. */
  post(message: Out): void {
    if (this.panel) this.queue.post(message);
  }

  private deliver(message: Out): void {
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
    this.serializer.dispose();
    this.panel?.dispose();
    for (const s of this.panelSubs.splice(0)) s.dispose();
  }
}

function keptKey(viewType: string): string {
  return `sweci.panel.${viewType}`;
}

function isReady(message: Message): message is Ready {
  return message.type === 'ready';
}
