// The iteration view's test report: the archived report.json as the page the webview lays out as
// a table, one row per test with its outcome, duration and the first lines of its failure,
// failures first. The webview filters the rows it was sent; the raw report stays one click away.
import * as l10n from '@vscode/l10n';
import type { IterationDetails } from '../../core/inspect/iteration-details';
import type { IterationReport } from '../../core/inspect/report-rows';
import { outcomeCounts } from '../../core/inspect/report-rows';
import type { IterationPage } from '../../shared/iteration-protocol';
import { button, iterationPosition, iterationTitle, stepButtons, type ShownPage } from './iteration-page';

/** Rows past this are left to the raw report (failures come first, so they are all shown). */
const REPORT_ROW_LIMIT = 5000;

function formatTestDuration(sec: number | undefined): string {
  if (sec === undefined) return '–';
  if (sec < 0.001) return '<1 ms';
  if (sec < 1) return `${Math.round(sec * 1000)} ms`;
  return sec < 60 ? `${sec.toFixed(2)} s` : `${Math.floor(sec / 60)} min ${Math.round(sec % 60)} s`;
}

function reportPage(d: IterationDetails, report: IterationReport): Extract<IterationPage, { kind: 'report' }> {
  const [previous, next] = stepButtons(d, ['The previous iteration’s test report', 'The next iteration’s test report']);
  const header = {
    previous,
    heading: [{ text: d.run }, { text: `${iterationPosition(d)} · ${l10n.t('test report')}`, muted: true }],
    next,
    actions: [
      button('close-test-report', l10n.t('Back to Iteration'), { title: l10n.t('The iteration’s scores, tests, requirement.xml and roles') }),
      button('open-raw-report', l10n.t('Open Raw Report'), { disabled: !report.raw, title: l10n.t('report.json as it is archived') }),
    ],
  };
  const rows = report.rows;
  if (!rows) return { kind: 'report', header, table: { missing: report.missing ?? 'No test report.' } };
  const timed = rows.some((r) => r.durationSec !== undefined);
  const total = rows.reduce((s, r) => s + (r.durationSec ?? 0), 0);
  const shown = rows.slice(0, REPORT_ROW_LIMIT);
  return {
    kind: 'report',
    header,
    table: {
      rows: shown.map((r) => ({
        outcome: r.outcome,
        nodeid: r.nodeid,
        duration: formatTestDuration(r.durationSec),
        ...(r.message ? { message: r.message } : {}),
      })),
      counts: outcomeCounts(rows).map(([outcome, n]) => ({ outcome, n })),
      ...(timed ? { total: formatTestDuration(total) } : {}),
      failing: rows.filter((r) => r.outcome === 'failed' || r.outcome === 'error').length,
      more: rows.length - shown.length,
    },
  };
}

export function reportContent(d: IterationDetails, report: IterationReport): ShownPage {
  return { title: `${iterationTitle(d)} ${l10n.t('test report')}`, page: reportPage(d, report) };
}
