// The chart webview and Export Report.
import * as vscode from 'vscode';
import { openTestAt } from '../inspect/open-test';
import type { ChangeFeed } from '../change-feed';
import { ChartPanelHost } from '../chart/chart-panel';
import { exportReportCommand, type ExportArgs } from '../chart/export-command';
import { ReportBrowser } from '../chart/report-browser';
import type { IterationViewHost } from '../inspect/iteration-view';
import type { TaskController } from '../task-controller';
import { errorMessage } from '../../core/util/errors';

export interface ChartFeature {
  chart: ChartPanelHost;
  exportReport(args?: ExportArgs): ReturnType<typeof exportReportCommand>;
}

export function activateChart(context: vscode.ExtensionContext, controller: TaskController, feed: ChangeFeed, iterationView: IterationViewHost): ChartFeature {
  const chart = new ChartPanelHost({
    context,
    tasks: controller,
    feed,
    // A clicked point opens that iteration in the iteration view (which reveals its row).
    openIteration: async (run, iteration) => {
      if (!controller.task()) return 'No SWE-CI task is open.';
      try {
        await iterationView.show({ run, iteration });
        return undefined;
      } catch (err) {
        return errorMessage(err);
      }
    },
    // A heatmap cell: the iteration in the iteration view, and the test at its definition.
    openTest: async (run, iteration, nodeid) => {
      const dir = controller.task();
      if (!dir) return 'No SWE-CI task is open.';
      try {
        await iterationView.show({ run, iteration });
        return await openTestAt(dir, nodeid);
      } catch (err) {
        return errorMessage(err);
      }
    },
  });
  // Closed with the window: the report's loopback server serves nothing after it.
  const browser = new ReportBrowser();
  const exportReport = (args?: ExportArgs) => exportReportCommand(context, controller.task(), chart.gamma, browser, args);
  context.subscriptions.push(
    chart,
    browser,
    vscode.commands.registerCommand('sweci.showChart', () => chart.show()),
    vscode.commands.registerCommand('sweci.exportReport', (args?: ExportArgs) => exportReport(args)),
  );
  return { chart, exportReport };
}
