// The test bundle's entry (esbuild.mjs: dist-test/extension.js, loaded from the folder
// test/harness/test-extension.ts makes): the product's features, activated as the product
// activates them, plus what the integration tests read and drive them through (SweciApi). The
// product's dist/extension.js holds none of this (test/unit/build/product-bundles.test.ts).
import * as fs from 'node:fs/promises';
import type * as vscode from 'vscode';
import type { LeaderboardRecord } from '../../src/shared/leaderboard-record';
import { activateFeatures, startFeatures } from '../../src/extension/activate/features';
import { observeMessages, type ShownMessage } from '../../src/extension/messages';
import { sweciApi } from './sweci-api';
import type { SweciApi } from './test-api';
import { recordWebviews } from './webview-log';

export { deactivate } from '../../src/extension/extension';

/** Messages kept for lastMessages(). */
const KEEP = 50;

export async function activate(context: vscode.ExtensionContext): Promise<SweciApi> {
  // Recording starts before the features exist, so it sees what activation shows and posts.
  const shown: ShownMessage[] = [];
  observeMessages((m) => {
    shown.push(m);
    if (shown.length > KEEP) shown.splice(0, shown.length - KEEP);
  });
  const webviews = recordWebviews();
  const features = activateFeatures(context);
  // Built before the task loads, so it sees the first results.
  const api = sweciApi(features, webviews, () => [...shown]);
  await startFeatures(context, features);
  // The e2e leaderboard scenario hands a record in by file (a page cannot call this API).
  const board = process.env.SWECI_TEST_LEADERBOARD;
  if (board) api.openLeaderboard(JSON.parse(await fs.readFile(board, 'utf8')) as LeaderboardRecord).catch((err: unknown) => console.error(err));
  return api;
}
