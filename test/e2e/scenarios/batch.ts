// A benchmark run made headless opens in the editor: `sweci run` (the bundled CLI) runs one demo
// task into an experiment folder with the scripted agents; that task folder is then opened in
// VS Code, where the SWE-CI view lists the run and the chart draws it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';
import { repoRoot } from '../../unit/helpers/repo-root';
import { writeScriptedSettings } from '../../unit/helpers/scripted-settings';
import { withWorkbench } from '../../harness/workbench';
import { chartFrame } from './chart';

export async function batchScenario(): Promise<string> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-batch-'));
  try {
    const demo = await demoDatasetFixture(path.join(scratch, 'dataset'), { batch: true });
    const task = demo.tasks[2];
    const config = await writeScriptedSettings(demo, scratch);
    const experiment = path.join(scratch, 'experiment');
    const cli = path.join(repoRoot, 'dist', 'cli.js');
    const run = spawnSync(
      process.execPath,
      [
        cli,
        'run',
        '--dataset',
        demo.datasetDir,
        '--experiment',
        experiment,
        '--run',
        'headless',
        '--config',
        config,
        '--runtime',
        'local',
        '--tasks',
        task.taskId,
      ],
      { encoding: 'utf8' },
    );
    if (run.status !== 0 || !run.stdout.includes('finished: 1 solved')) throw new Error(`sweci run failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);

    return await withWorkbench({ folder: path.join(experiment, task.taskId), name: 'batch', viewport: { width: 1400, height: 960 } }, async (page, wb) => {
      await wb.openSweciView();
      await wb.waitForTreeRow('headless');
      await wb.runCommand('SWE-CI: Show Chart');
      const frame = await chartFrame(page);
      // The run's row says what the CLI recorded: solved in one iteration per upstream commit.
      const row = frame.locator('#runs tbody tr').filter({ hasText: 'headless' });
      await row.waitFor({ timeout: 30_000 });
      const text = await row.innerText();
      if (!new RegExp(`\\b${task.commits.length - 1}\\b`).test(text) || !/yes/.test(text))
        throw new Error(`the chart's row for the CLI's run is not what it recorded: ${text}`);
      await page.waitForTimeout(800);
      return wb.screenshot('batch');
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
