// In the real extension host: the Leaderboard panel opened on a record (built by code, 18
// entries), as SWE-CI: Open Leaderboard opens it once the record is computed. The page asks for
// the record and gets it whole; a click opens the entry's experiment, and only an entry the
// record holds; a message the protocol does not name is refused; a malformed record opens nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LeaderboardRecord } from '../../src/core/leaderboard/leaderboard-record';
import type { SweciApi } from '../extension/test-api';
import { leaderboardFixture } from '../unit/helpers/leaderboard-fixture';
import { api, until } from './helpers';

function lastRecord(sweci: SweciApi): LeaderboardRecord | undefined {
  const posted = sweci.leaderboardMessages().posted;
  return posted[posted.length - 1]?.record;
}

suite('Leaderboard panel', function () {
  this.timeout(120_000);
  let dir: string;

  suiteSetup(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-leaderboard-'));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the page gets the record after ready, and a click opens only an entry the record holds', async () => {
    const sweci = await api();
    const record = leaderboardFixture();
    // The first entry's experiment is a real folder with its sweci-experiment.json; the others are not.
    const experiment = path.join(dir, 'opus');
    fs.mkdirSync(experiment);
    fs.writeFileSync(path.join(experiment, 'sweci-experiment.json'), '{}\n');
    record.entries[0].experiments = [{ experiment, run: 'opus' }];
    await sweci.openLeaderboard(record);
    const shown = await until('the panel is sent the record', () => lastRecord(sweci));
    assert.deepEqual(shown, record);
    assert.ok(
      sweci.leaderboardMessages().received.some((m) => m.type === 'ready'),
      'the page said ready',
    );

    await sweci.leaderboardReceive({ type: 'entry-clicked', label: record.entries[0].label });
    await until('the experiment opens', () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === path.join(experiment, 'sweci-experiment.json') ? true : undefined,
    );

    const before = sweci.lastMessages().length;
    await sweci.leaderboardReceive({ type: 'entry-clicked', label: record.entries[1].label });
    const said = await until('the missing experiment is named', () =>
      sweci
        .lastMessages()
        .slice(before)
        .find((m) => m.level === 'info'),
    );
    assert.match(said.text, new RegExp(`${record.entries[1].label}: no sweci-experiment.json`));

    // A label the record does not hold, and a message with a field the protocol does not name: nothing happens.
    const count = sweci.lastMessages().length;
    const received = sweci.leaderboardMessages().received.length;
    await sweci.leaderboardReceive({ type: 'entry-clicked', label: 'not-an-entry' });
    await sweci.leaderboardReceive({ type: 'entry-clicked', label: record.entries[1].label, path: '/etc/passwd' });
    assert.equal(sweci.lastMessages().length, count);
    assert.equal(sweci.leaderboardMessages().received.length, received + 1, 'only the well-formed message was taken');
  });

  test('a malformed record opens nothing and says which field', async () => {
    const sweci = await api();
    const record = leaderboardFixture();
    record.entries[2].zeroRegressionRate = 1.5;
    const posted = sweci.leaderboardMessages().posted.length;
    await assert.rejects(sweci.openLeaderboard(record), (err: Error & { detail?: string }) => {
      assert.match(err.message, /malformed/);
      assert.match(err.detail ?? '', /^entries\.2\.zeroRegressionRate: /);
      return true;
    });
    assert.equal(sweci.leaderboardMessages().posted.length, posted);
  });
});
