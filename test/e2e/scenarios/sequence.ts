// A SWE-Bench-CL sequence run with the bundled CLI (with memory, and a zero-shot run without it
// beside it), then one of its tasks opened in VS Code: the chart shows the sequence's results
// matrix, its learning curve and the continual-learning metrics, FWT included.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readClResults } from '../../../src/core/sequence/cl-results';
import { repoRoot } from '../../unit/helpers/repo-root';
import { buildSequenceFixture } from '../../unit/helpers/sequence-fixture';
import { withWorkbench } from '../../harness/workbench';
import { chartFrame } from './chart';

export async function sequenceScenario(): Promise<string> {
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-sequence-')));
  try {
    const fx = await buildSequenceFixture(scratch);
    const cli = path.join(repoRoot, 'dist', 'cli.js');
    const runs = path.join(scratch, 'runs');
    for (const [name, memory] of [
      ['with-memory', true],
      ['zero-shot', false],
    ] as const) {
      const args = ['run', '--sequence', fx.sequenceFile, '--repos', fx.reposDir, '--experiment', path.join(runs, name), '--config', fx.settingsFile];
      const r = spawnSync(process.execPath, [cli, ...args, ...(memory ? ['--memory'] : []), '--max-iterations', '1', '--runtime', 'local', '--run', 'agent'], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`sweci run --sequence (${name}) failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
    const experiment = path.join(runs, 'with-memory');
    const results = await readClResults(experiment);
    if (!results) throw new Error('the sequence wrote no cl-results.json');

    return await withWorkbench(
      { folder: path.join(experiment, fx.taskIds[1]), name: 'sequence', viewport: { width: 1400, height: 1000 } },
      async (page, wb) => {
        await wb.openSweciView();
        await wb.waitForTreeRow('agent');
        await wb.runCommand('SWE-CI: Show Chart');
        const frame = await chartFrame(page);
        const section = frame.locator('#sequence');
        await section.locator('#sequence-matrix td.pass').first().waitFor({ timeout: 30_000 });
        // The matrix drawn is the one the CLI wrote, cell by cell.
        const drawn = await frame
          .locator('#sequence-matrix tbody tr')
          .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td:not(.empty)')).map((td) => td.textContent)));
        const written = results.matrix.map((row, i) => (row ?? []).slice(0, i + 1).map((v) => (v === null ? '·' : String(v))));
        if (JSON.stringify(drawn) !== JSON.stringify(written))
          throw new Error(`the matrix drawn ${JSON.stringify(drawn)} is not the one written ${JSON.stringify(written)}`);
        const fwt = await frame.locator('#sequence-metrics tr').filter({ hasText: 'FWT' }).innerText();
        if (!/\d\.\d{3}/.test(fwt) || !/zero-shot/.test(fwt)) throw new Error(`FWT has no value measured against the zero-shot run: ${fwt}`);
        await page.keyboard.press('Control+B');
        await section.scrollIntoViewIfNeeded();
        await page.waitForTimeout(800);
        return wb.screenshot('sequence');
      },
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
