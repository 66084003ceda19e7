// The leaderboard's offline page: the panel's bundle and stylesheet inlined with the record,
// nothing fetched from anywhere, and the embedded record reads back as the record written.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { leaderboardRecordSchema } from '../../../src/shared/leaderboard-record';
import { formatLeaderboard } from '../../../src/core/leaderboard/leaderboard-format';
import { writeLeaderboardReport } from '../../../src/core/report/leaderboard-html';
import { leaderboardFixture } from '../helpers/leaderboard-fixture';

/** An asset folder like the package's: dist/leaderboard.js, media/webview-base.css and media/leaderboard.css. */
function assets(script: string, css: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-lb-assets-'));
  fs.mkdirSync(path.join(root, 'dist'));
  fs.mkdirSync(path.join(root, 'media'));
  fs.writeFileSync(path.join(root, 'dist', 'leaderboard.js'), script);
  fs.writeFileSync(path.join(root, 'media', 'webview-base.css'), 'body { margin: 0 }');
  fs.writeFileSync(path.join(root, 'media', 'leaderboard.css'), css);
  return root;
}

test('leaderboard.html is self-contained, forbids every request and embeds the record', async (t) => {
  const root = assets('window.drawn = "</script><b>";\n//# sourceMappingURL=leaderboard.js.map\n', 'body { color: red }');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-lb-out-'));
  t.after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  });
  // A label that would close the script element if it were not escaped, wherever the record names it.
  const fixture = leaderboardFixture();
  const renamed = JSON.stringify(fixture).replaceAll(JSON.stringify(fixture.entries[0].label), JSON.stringify('evil</script><img src=x onerror=alert(1)>'));
  const record = leaderboardRecordSchema.parse(JSON.parse(renamed));
  const out = await writeLeaderboardReport({ record, folder, assetRoot: root });
  const html = fs.readFileSync(out.html, 'utf8');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  assert.doesNotMatch(html, /https?:\/\//, 'no remote URL');
  assert.doesNotMatch(html, /<(?:link|img|iframe)\b/i, 'nothing loaded from a file or the network');
  assert.doesNotMatch(html, /sourceMappingURL/);
  // The shared stylesheet, then the panel's own (which may override it), as the panel loads them.
  assert.match(html, /body \{ margin: 0 \}\n+body \{ color: red \}/);
  assert.match(html, /window\.drawn = "<\\\/script><b>"/, 'the inlined script cannot close its element');
  const data = /<script type="application\/json" id="sweci-leaderboard-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(data, 'the record is embedded');
  assert.deepEqual(leaderboardRecordSchema.parse(JSON.parse(data[1])), record);
  assert.deepEqual(JSON.parse(fs.readFileSync(out.json, 'utf8')), record);
  // The CSV as `--format csv` prints it: a header and one row per entry, the hostile label quoted whole.
  const csv = fs.readFileSync(out.csv, 'utf8');
  assert.equal(csv, formatLeaderboard(record, 'csv'));
  assert.equal(csv.trim().split('\n').length, record.entries.length + 1);
});

test('a record the schema refuses writes nothing', async (t) => {
  const root = assets('', '');
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-lb-out-'));
  const folder = path.join(parent, 'out');
  t.after(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(parent, { recursive: true, force: true });
  });
  const record = leaderboardFixture();
  record.entries[0].solvedRate = 2;
  await assert.rejects(writeLeaderboardReport({ record, folder, assetRoot: root }));
  assert.ok(!fs.existsSync(folder), 'not even the folder is made');
});
