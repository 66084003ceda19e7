// The panel benches' one measure: a webview bundle run in a page, timed from the moment it starts
// to the first frame after it (two animation frames: the one it drew in, then the next, which
// starts once that one is painted).
import type { Page } from 'playwright-core';

/** Runs `code` as the page's script; the ms from starting it to its first painted frame. */
export function runToFirstFrame(page: Page, code: string): Promise<number> {
  return page.evaluate(async (script) => {
    const t0 = performance.now();
    const s = document.createElement('script');
    s.textContent = script;
    document.body.append(s);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  }, code);
}
