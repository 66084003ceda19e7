// The leaderboard as one offline page: the Leaderboard panel's own bundle (dist/leaderboard.js)
// and stylesheet inlined with the record as JSON, under the report's CSP that forbids every
// request (report-html.ts), so the page draws the same table and figures as the panel, anywhere.
// The record's JSON and CSV (as `sweci leaderboard --format json|csv` prints them) are written
// beside it. `sweci report --leaderboard` and the panel's Export write them.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { formatLeaderboard } from '../leaderboard/leaderboard-format';
import { leaderboardRecordSchema, type LeaderboardRecord } from '../../shared/leaderboard-record';
import { readPanelAssets } from './panel-assets';
import { standalonePage } from './report-html';

/** Where the page embeds the record (webview-ui/leaderboard-view.ts reads it from there). */
const DATA_ID = 'sweci-leaderboard-data';

function leaderboardHtml(opts: { title: string; script: string; css: string; record: LeaderboardRecord }): string {
  return standalonePage({ title: opts.title, script: opts.script, css: opts.css, payload: opts.record, dataId: DATA_ID });
}

/** Writes `leaderboard.html`, `leaderboard.json` and `leaderboard.csv` into `folder`, from the bundle and stylesheet under `assetRoot`. */
export async function writeLeaderboardReport(opts: {
  record: LeaderboardRecord;
  folder: string;
  assetRoot: string;
  title?: string;
}): Promise<{ html: string; json: string; csv: string }> {
  // A record the schema refuses is refused before anything is written.
  const record = leaderboardRecordSchema.parse(opts.record);
  const { script: bare, css } = await readPanelAssets(opts.assetRoot, 'leaderboard.js', 'leaderboard.css');
  await fs.mkdir(opts.folder, { recursive: true });
  const out = {
    html: path.join(opts.folder, 'leaderboard.html'),
    json: path.join(opts.folder, 'leaderboard.json'),
    csv: path.join(opts.folder, 'leaderboard.csv'),
  };
  await fs.writeFile(out.html, leaderboardHtml({ title: opts.title ?? 'Leaderboard · SWE-CI', script: bare, css, record }));
  await fs.writeFile(out.json, formatLeaderboard(record, 'json'));
  await fs.writeFile(out.csv, formatLeaderboard(record, 'csv'));
  return out;
}
