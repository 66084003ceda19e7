// Loads that end in one shared page (the Iteration view's): what the user asked for last wins, and
// a reload of the page from disk (a run changed) never puts back a page the user has moved away
// from. Loads are asynchronous and finish in any order, so each result is checked before it is
// shown: a request's only while no later request was made; a reload's only while nothing was
// requested since it began and the page it reloaded is still the one shown.

export class PageLoads<P> {
  private requested = 0;

  /** A load the user asked for: `current()` stays true until a later one is asked for. */
  request(): { current: () => boolean } {
    const ticket = ++this.requested;
    return { current: () => ticket === this.requested };
  }

  /** A reload of `page` (what is shown as it begins): `current(shown)` is whether its result may still replace `shown`. */
  reload(page: P): { current: (shown: P | undefined) => boolean } {
    const seen = this.requested;
    return { current: (shown) => seen === this.requested && shown === page };
  }
}
