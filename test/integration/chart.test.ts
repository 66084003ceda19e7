// In the real extension host: the chart webview gets what iteration.jsonl implies, follows a
// new pytest run live, answers a point click, has a strict CSP with no remote resource, and
// Export Report writes a self-contained report.
import assert from 'node:assert/strict';
import { taskFolder } from '../../src/core/workspace/task-folder';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { demoDatasetFixture } from '../harness/demo-dataset-fixture';
import type { AgentSettings } from '../../src/core/agents/agent-driver';
import { readIterationRecords, type IterationRecord } from '../../src/core/loop/iteration-record';
import type { RoleSetup } from '../../src/core/loop/loop-types';
import { runLoop, startRun } from '../../src/core/loop/run-loop';
import { baselineOf, normalizedChange } from '../../src/shared/metrics/normalized-change';
import { LocalRuntime } from '../../src/core/runtime/local-runtime';
import { oracleLayout } from '../../src/core/workspace/layout';
import type { ChartData } from '../../src/shared/chart-types';
import type { HostMessage } from '../../src/shared/chart-protocol';
import type { SweciApi } from '../extension/test-api';
import { agentsDir, api, until } from './helpers';

const RUN = 'chart-it';

function scripted(script: string, env: Record<string, string> = {}): RoleSetup {
  const settings: AgentSettings = { kind: 'custom', command: `python3 ${path.join(agentsDir, script)}`, promptVia: 'stdin', timeoutSec: 120, maxTries: 2, env };
  return { settings };
}

/** The chart point each iteration.jsonl line implies, by the reference rules. */
function expectedPoints(records: IterationRecord[]) {
  const base = baselineOf(records[0])!;
  return records.map((r) => ({
    iteration: r.iteration,
    a: r.gap < 0 ? null : normalizedChange(r.pytest.passed ?? 0, base),
    passed: r.gap < 0 ? null : r.passed,
    targetPassed: r.target_passed,
    gap: r.gap,
    regressions: r.regressions.length,
    crashed: r.gap < 0,
    commit: r.commit,
  }));
}

function pick(data: ChartData) {
  const s = data.runs.find((x) => x.run === RUN);
  return s?.points.map(({ iteration, a, passed, targetPassed, gap, regressions, crashed, commit }) => ({
    iteration,
    a,
    passed,
    targetPassed,
    gap,
    regressions,
    crashed,
    commit,
  }));
}

function lastData(sweci: SweciApi): ChartData | undefined {
  const msgs = sweci.chartMessages().posted.filter((m): m is Extract<HostMessage, { type: 'init' | 'update' }> => m.type === 'init' || m.type === 'update');
  return msgs[msgs.length - 1]?.data;
}

suite('The chart webview', function () {
  this.timeout(300_000);
  let taskDir: string;
  let loopOpts: Parameters<typeof runLoop>[0];

  suiteSetup(async () => {
    const sweci = await api();
    taskDir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const demo = await demoDatasetFixture(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-chart-')));
    const result = await sweci.checkOutTask({ source: 'dataset', datasetDir: demo.datasetDir, taskId: demo.taskId, targetDir: taskDir });
    assert.ok(result);
    const env = { SWECI_SCRIPTED_UPSTREAM: oracleLayout(result.record.oracleDir).upstreamDir, SWECI_SCRIPTED_COMMITS: demo.commits.join(',') };
    loopOpts = {
      task: taskFolder(taskDir),
      run: RUN,
      roles: { architect: scripted('architect.py'), programmer: scripted('programmer.py', env) },
      runtime: new LocalRuntime(),
      pytest: { python: 'python3', timeoutMs: 120_000, format: 'junit' },
      iterations: 2,
    };
    await startRun(loopOpts);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // This suite runs first (files run in name order) and the checkout suite expects the
    // workspace as the runner made it: empty. Leave nothing behind.
    for (const name of fs.readdirSync(taskDir)) fs.rmSync(path.join(taskDir, name), { recursive: true, force: true });
  });

  test('Show Chart sends the runs as iteration.jsonl records them, and the webview draws them', async () => {
    const sweci = await api();
    await vscode.commands.executeCommand('sweci.showChart');
    const rendered = await until('the webview to draw', () => sweci.chartMessages().received.find((m) => m.type === 'rendered' && m.runs.includes(RUN)));
    const records = await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile);
    assert.equal(records.length, 3, 'the base and two iterations');
    const data = lastData(sweci)!;
    assert.deepEqual(pick(data), expectedPoints(records));
    const series = data.runs.find((s) => s.run === RUN)!;
    assert.equal(series.kind, 'agent');
    const row = series.metrics;
    assert.equal(row.iterations, 2);
    assert.ok(row.tokensIn > 0, 'the scripted agents report tokens');
    assert.equal(
      rendered.type === 'rendered' && rendered.points,
      data.runs.reduce((n, s) => n + s.points.length, 0),
      'the webview drew every point it was sent',
    );
    assert.ok(sweci.chartMessages().received.some((m) => m.type === 'ready'));
  });

  test('a new pytest run reaches the open chart without reopening it', async () => {
    const sweci = await api();
    await runLoop({ ...loopOpts, iterations: 1 });
    const records = await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile);
    assert.equal(records.length, 4);
    await until('the update', () => (pick(lastData(sweci)!)?.length === 4 ? true : undefined), 30_000).catch((err: Error) => {
      const posts = sweci.chartMessages().posted.filter((m) => m.type === 'init' || m.type === 'update');
      throw new Error(`${err.message}: ${posts.length} init/update posts, the last with ${pick(lastData(sweci)!)?.length ?? 'no'} points of ${RUN}`);
    });
    assert.deepEqual(pick(lastData(sweci)!), expectedPoints(records));
    await until('the webview to draw the update', () => sweci.chartMessages().received.some((m) => m.type === 'rendered' && m.points >= 4) || undefined);
  });

  test('with .sweci excluded from file watching (files.watcherExclude), a new iteration still reaches the open chart', async () => {
    const sweci = await api();
    const files = vscode.workspace.getConfiguration('files');
    await files.update('watcherExclude', { '**/.sweci/**': true }, vscode.ConfigurationTarget.Workspace);
    try {
      const before = pick(lastData(sweci)!)?.length ?? 0;
      await runLoop({ ...loopOpts, iterations: 1 });
      const records = await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile);
      assert.equal(records.length, before + 1);
      await until('the update', () => (pick(lastData(sweci)!)?.length === records.length ? true : undefined), 30_000);
      assert.deepEqual(pick(lastData(sweci)!), expectedPoints(records));
    } finally {
      await files.update('watcherExclude', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('a theme change redraws the chart in the new theme’s colours', async () => {
    const sweci = await api();
    const workbench = vscode.workspace.getConfiguration('workbench');
    const drawn = () =>
      sweci
        .chartMessages()
        .received.filter((m) => m.type === 'rendered')
        .pop();
    const before = drawn();
    assert.ok(before?.type === 'rendered');
    const dark = /dark/i.test(String(workbench.get('colorTheme') ?? ''));
    await workbench.update('colorTheme', dark ? 'Default Light Modern' : 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    try {
      const after = await until(
        'a redraw in other colours',
        () => {
          const m = drawn();
          return m?.type === 'rendered' && m.foreground !== before.foreground ? m : undefined;
        },
        30_000,
      );
      assert.ok(after.foreground.length > 0, 'the foreground comes from the theme');
    } finally {
      await workbench.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a clicked point opens that iteration in the iteration view and selects it in the Iterations view; malformed messages are dropped', async () => {
    const sweci = await api();
    await sweci.chartReceive({ type: 'point-clicked', requestId: 41, run: RUN, iteration: 2 });
    const ack = sweci
      .chartMessages()
      .posted.filter((m) => m.type === 'reveal-ack')
      .pop();
    assert.deepEqual(ack, { type: 'reveal-ack', requestId: 41, run: RUN, iteration: 2, ok: true }, 'the reply carries the request’s id');
    assert.equal(sweci.iterationView().shown, `${RUN} #2`);
    const details = sweci.iterationView().details;
    assert.ok(details?.kind === 'iteration');
    assert.equal(details.details.record.commit, (await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile))[2].commit);
    await until('the iteration selected in the Iterations view', () => sweci.iterationsSelection().includes(`${RUN} #2`) || undefined, 10_000);

    const before = sweci.chartMessages().received.length;
    await sweci.chartReceive({ type: 'point-clicked', requestId: 42, run: RUN });
    await sweci.chartReceive({ type: 'point-clicked', run: RUN, iteration: 1 });
    await sweci.chartReceive({ type: 'run-this', code: 'x' });
    assert.equal(sweci.chartMessages().received.length, before, 'nothing malformed is accepted');
  });

  test('the webview HTML has a strict CSP (nonce’d script, default-src none) and references no remote resource', async () => {
    const sweci = await api();
    const html = sweci.chartHtml()!;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.ok(csp, 'a CSP meta tag');
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v] as const),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    const script = directives.get('script-src')!;
    assert.equal(script.length, 1);
    const nonce = /^'nonce-([A-Za-z0-9]{16,})'$/.exec(script[0])?.[1];
    assert.ok(nonce, `script-src is a nonce only: ${script.join(' ')}`);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
    for (const k of ['style-src', 'img-src', 'font-src'])
      assert.ok(!directives.get(k)!.some((v) => /^https?:\/\/(?!.*vscode)/.test(v)), `${k} allows only the webview's own source`);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    assert.ok(scripts.length > 0);
    for (const attrs of scripts) assert.ok(attrs.includes(`nonce="${nonce}"`), `every script carries the nonce: ${attrs}`);
    assert.ok(!/\sstyle=/.test(html), 'no inline style attributes');
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]));
    // The shared stylesheet, the chart's own and its script: nothing else.
    assert.deepEqual(
      urls.map((u) => u.slice(u.lastIndexOf('/') + 1)),
      ['webview-base.css', 'chart.css', 'webview.js'],
      urls.join(', '),
    );
    const ext = vscode.extensions.getExtension('sweci.swe-ci-vscode')!.extensionUri.path;
    for (const url of urls) {
      const u = vscode.Uri.parse(url);
      assert.ok(u.path.startsWith(`${ext}/dist/`) || u.path.startsWith(`${ext}/media/`), `${url} is a local resource of the extension`);
      assert.match(u.authority, /vscode-resource|vscode-cdn|^$/, `${url} is served by the webview, not the network`);
    }
  });

  test('Export Report writes one self-contained HTML file with the data, and the metrics as CSV and JSON', async () => {
    const sweci = await api();
    const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-export-')), 'report');
    const out = (await sweci.exportReport(folder))!;
    const html = fs.readFileSync(out.html, 'utf8');
    assert.ok(!/<(?:script|link|img)\b[^>]*\b(?:src|href)=/i.test(html), 'nothing is loaded from outside the file');
    assert.match(html, /default-src 'none'/);
    const payload = JSON.parse(/<script type="application\/json" id="sweci-report-data">([\s\S]*?)<\/script>/.exec(html)![1]) as {
      data: Parameters<typeof pick>[0];
      heatmaps: { run: string }[];
    };
    const records = await readIterationRecords(taskFolder(taskDir).run(RUN).iterationsFile);
    assert.deepEqual(pick(payload.data), expectedPoints(records));
    assert.ok(payload.heatmaps.some((h) => h.run === RUN));
    const csv = fs.readFileSync(out.csv, 'utf8').trim().split('\n');
    assert.match(csv[0], /^run,kind,label,gamma,evoscore_gamma,evoscore_1,solved/);
    assert.ok(csv.some((l) => l.startsWith(`${RUN},agent,`)));
    const json = JSON.parse(fs.readFileSync(out.json, 'utf8')) as { runs: { run: string; iterations: number }[] };
    assert.equal(json.runs.find((r) => r.run === RUN)?.iterations, records.length - 1, 'the iterations recorded after the base');
  });
});
