// The messages for a webview page that has not said `ready` yet. A page's script listens only
// once it has loaded, so a message posted earlier would be lost: it waits here instead, and goes
// after the messages that bring the new page up to date (the host's onReady), in the order it
// was posted. No VS Code API: the unit tests drive it as the host does.

type Message = { type: string };

export class PageQueue<M extends Message> {
  private waiting: M[] = [];
  private ready = false;

  /** `deliver` hands a message to the page (only ever once the page is ready). */
  constructor(private readonly deliver: (message: M) => void) {}

  /** Sends `message` now if the page is ready, else keeps it until it is. */
  post(message: M): void {
    if (this.ready) this.deliver(message);
    else this.waiting.push(message);
  }

  /** A page is loading (set, or reloading after it said ready): what is posted now waits for it. */
  loading(): void {
    this.ready = false;
  }

  /** The page is gone (its panel closed): nothing waits for it. */
  closed(): void {
    this.ready = false;
    this.waiting = [];
  }

  /**
   * The page is ready: `first` goes first, then what waited, in order. A waiting message of a
   * type that `first` has, or that `replaced` names, is dropped: it was made before `first`,
   * which says the same about the page's whole state.
   */
  open(first: readonly M[], replaced: readonly string[] = []): void {
    const stale = new Set([...first.map((m) => m.type), ...replaced]);
    const waiting = this.waiting.filter((m) => !stale.has(m.type));
    this.waiting = [];
    this.ready = true;
    for (const m of [...first, ...waiting]) this.deliver(m);
  }
}
