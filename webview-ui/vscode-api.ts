// VS Code's webview API, acquired once per page (a second acquireVsCodeApi() throws): every
// script of the page shares it through here. Undefined outside VS Code (an exported report).
export interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

let api: VsCodeApi | undefined;

export function vscodeApi(): VsCodeApi | undefined {
  if (typeof acquireVsCodeApi !== 'function') return undefined;
  return (api ??= acquireVsCodeApi());
}
