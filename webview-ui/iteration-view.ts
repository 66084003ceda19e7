// The iteration view's only script: clicks on elements with data-action become messages to the
// host (which re-renders the view). No state, no content of its own.
import './zod-config';
import { messageForAction } from '../src/shared/iteration-protocol';

interface VsCodeApi {
  postMessage(msg: unknown): void;
}
declare const acquireVsCodeApi: () => VsCodeApi;

const api = acquireVsCodeApi();

document.addEventListener('click', (event) => {
  const target = (event.target as Element | null)?.closest('[data-action]');
  if (!(target instanceof HTMLElement)) return;
  const msg = messageForAction(target.dataset.action, target.dataset.arg);
  if (!msg) return;
  event.preventDefault();
  api.postMessage(msg);
});
