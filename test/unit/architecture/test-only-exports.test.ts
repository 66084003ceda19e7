// No test surface in the product's modules: a name exported from src/ or webview-ui/ that no
// product file names (src/ and webview-ui/ besides its own module, bench/, scripts/) but a test does is exported for the
// test alone. Such a name is either dead product code kept alive by its test, or a helper a test
// should reach through the module's public functions. Names are matched as whole words, as a
// reader searching the code would find them; the few kept on purpose are listed with their reason.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/repo-root';
import { sourceFiles } from '../helpers/source-files';

/** Exported for tests on purpose, by module: each with why a test needs the name itself. */
const KEPT: Record<string, Record<string, string>> = {
  // The VS Code entry point and the seams the test bundle (test/extension) plugs into.
  'src/extension/extension.ts': { deactivate: 'the entry point VS Code calls on shutdown' },
  'src/extension/messages.ts': {
    observeMessages: "the test bundle's seam to record the messages shown",
    ShownMessage: 'what that seam records',
  },
  'src/extension/webview/webview-host.ts': { observeWebviews: "the test bundle's seam to record the panels' traffic" },
  'src/extension/chart/chart-panel.ts': { CHART_VIEW_TYPE: 'the id the test bundle finds the chart panel by' },
  'src/extension/inspect/iteration-view.ts': { ITERATION_VIEW_TYPE: 'the id the test bundle finds the iteration view by' },
  'src/extension/transcript/transcript-panel.ts': { TRANSCRIPT_VIEW_TYPE: 'the id the test bundle finds the transcript panel by' },
  'src/extension/testing/test-controller.ts': { TestItemRow: "the rows the test bundle reads Test Explorer's items as" },
  // Contracts a test checks against another side (package.json, the Python plugin, the engine).
  'src/cli/cli-settings.ts': { FLAG_KEYS: "every CLI flag's key must be a setting package.json contributes" },
  'src/core/agents/agent-settings.ts': { AGENT_CHOICES: "the parser's choices must be package.json's enum" },
  'src/core/pytest/report-stream.ts': { FRAME_PREFIX: "the report plugin's frame prefix (the Python side states it too)" },
  'src/shared/iteration-protocol.ts': { ITERATION_VIEW_ACTIONS: "every clickable action must make a message the view's host accepts" },
  'src/core/requirement/diagnostic-wording.ts': {
    DIAGNOSTIC_WORDING: "every wording must have the language server's literal l10n.t call, with the same English",
  },
  'src/core/gateway/calls-file.ts': { RECORD_SLACK_BYTES: 'how far past its byte bound a calls record may end (the crossing line and the refusal)' },
  // The one-list bootstrap is the reference the batched one (clusterBootstraps) must equal bit for bit.
  'src/core/leaderboard/cluster-bootstrap.ts': {
    clusterBootstrap: 'the one-list bootstrap, the reference the batched bootstraps must equal bit for bit',
    ClusteredTask: 'the tasks that reference takes',
  },
  'src/core/leaderboard/paired-difference.ts': { pairedDifference: 'one pair alone, the reference the batched pairs must equal' },
  'webview-ui/colour-distance.ts': {
    colourDistance: "the chart's colours must stay apart by this measure (unit), and the rendered ones too (e2e)",
    MIN_SERIES_DISTANCE: 'how far apart those colours must be',
    Rgb: 'the colour those checks measure',
  },
  'src/core/runtime/gateway-forwarder.ts': { FORWARDER_MARK: 'how a test (or `ps`) finds a forwarder process' },
  'src/core/runtime/docker/container-owner.ts': {
    MANAGED_LABEL: "the engine's label tests list the product's containers by",
    ROLE_LABEL: 'tests forge and name left-behind containers',
    SESSION_LABEL: "tests forge another session's containers",
    processStartTime: 'tests write the owner label of a live process, as the product does',
  },
  'src/core/loop/iteration-line-check.ts': {
    LINE_FIELDS: "the fast check's fields, which a test holds to iterationRecordSchema's (names, order, optional)",
    ROLE_FIELDS: "the fast check's role fields, which a test holds to roleStepRecordSchema's",
  },
  'src/core/scoring/run-summary-cache-check.ts': {
    CACHE_OBJECTS: "the cache check's tables, which a test holds to runSummaryCacheSchema's objects (names, order, optional)",
  },
  'src/core/loop/run-store.ts': { RoleInfo: 'a record type: record-types.test reads its declaration' },
  'src/core/scoring/experiment-summary-cache.ts': { ExperimentSummaryCache: 'a record type: record-types.test reads its declaration' },
  // Limits a test must come close to or go over.
  'src/core/pytest/run-pytest.ts': { MAX_REPORT_BYTES: 'a report just under the limit must be read' },
  'src/core/pytest/report-shape.ts': { MAX_REPORT_DEPTH: 'a report nested just under the limit must be read' },
  'src/core/requirement/validate-requirement.ts': { MAX_REQUIREMENT_CHARS: 'a requirement document just under the limit must pass' },
  // Tested on their own for cases their public entry cannot show or reach cheaply.
  'src/core/transcript/cli-events-transcript.ts': { readCliEvents: 'the reader without its guard: the fuzz test must see a throw the guard swallows' },
  'src/core/report/export-report.ts': { metricsCsv: "the CSV's quoting; its caller writeReport needs a task and the built webview bundle" },
  'src/cli/batch-display.ts': { statusLine: "a task's line in `sweci run`; its caller prints it only when stdout is not a terminal" },
};

const EXPORT = /^export (?:async )?(?:function\*?|const|let|class|interface|type|enum|abstract class) (\w+)/gm;

function read(dirs: readonly string[]): Map<string, string> {
  const text = new Map<string, string>();
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(repoRoot, dir))) text.set(path.relative(repoRoot, file).split(path.sep).join('/'), fs.readFileSync(file, 'utf8'));
  }
  return text;
}

/** Names exported from src/ or webview-ui/ that only tests name, as `module<TAB>name`. */
function testOnlyExports(): string[] {
  const product = read(['src', 'webview-ui', 'bench', 'scripts']);
  // This file names the kept ones: it is not a use.
  const tests = [...read(['test'])].filter(([file]) => file !== 'test/unit/architecture/test-only-exports.test.ts').map(([, t]) => t);
  const found: string[] = [];
  for (const [file, text] of product) {
    if (!file.startsWith('src/') && !file.startsWith('webview-ui/')) continue;
    for (const [, name] of text.matchAll(EXPORT)) {
      const word = new RegExp(`\\b${name}\\b`);
      const inProduct = [...product].some(([other, t]) => other !== file && word.test(t));
      if (!inProduct && tests.some((t) => word.test(t))) found.push(`${file}\t${name}`);
    }
  }
  return found.sort();
}

test('no name is exported from src/ or webview-ui/ for tests alone, besides the few kept on purpose', () => {
  const kept = new Set(Object.entries(KEPT).flatMap(([file, names]) => Object.keys(names).map((name) => `${file}\t${name}`)));
  const found = testOnlyExports();
  const unexpected = found.filter((f) => !kept.has(f));
  assert.deepEqual(
    unexpected,
    [],
    "Exported only for tests: reach the behaviour through the module's public functions, or move a test utility into test/ " +
      '(or, for a contract a test must name, add it to KEPT with the reason).',
  );
  // A kept name the product now uses, or no test names any more, leaves the list.
  const stale = [...kept].filter((k) => !found.includes(k));
  assert.deepEqual(stale, [], 'KEPT names that are no longer exported for tests alone: remove them from KEPT');
});
