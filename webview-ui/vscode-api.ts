// The webview's end of VS Code: acquireVsCodeApi (once per page, as VS Code allows), and the
// saved view state read back through a schema, never cast: a page may find state that an older
// version of the view saved. Undefined outside VS Code (an exported report's page).
import type * as z from 'zod/mini';

export interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

let api: VsCodeApi | undefined;

export function vsCodeApi(): VsCodeApi | undefined {
  if (!api && typeof acquireVsCodeApi === 'function') api = acquireVsCodeApi();
  return api;
}

/** The saved state if `schema` accepts it, else undefined. */
export function savedState<T>(api: VsCodeApi, schema: z.ZodMiniType<T>): T | undefined {
  const parsed = schema.safeParse(api.getState());
  return parsed.success ? parsed.data : undefined;
}
