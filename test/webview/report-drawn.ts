// The test webview bundles' report of what the page drew: after each change to the page (or a
// message from the host) settles, `read` summarizes it from the DOM and the drawn chart, and a
// summary that differs from the last one is posted as a 'rendered' message, which the test
// bundle's webview log keeps (test/extension/webview-log.ts).
import { vsCodeApi } from '../../webview-ui/vscode-api';

export function reportDrawn(read: () => object | undefined): void {
  const api = vsCodeApi();
  if (!api) return;
  let last = '';
  let pending = false;
  const check = () => {
    pending = false;
    const summary = read();
    const json = JSON.stringify(summary);
    if (summary && json !== last) {
      last = json;
      api.postMessage({ type: 'rendered', ...summary });
    }
  };
  // Two frames: what the page does after a change (e.g. build the bodies in view) has run.
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => requestAnimationFrame(check));
  };
  new MutationObserver(soon).observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  window.addEventListener('message', soon);
  soon();
}
