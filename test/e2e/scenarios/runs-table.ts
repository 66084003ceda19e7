// The chart's runs table as a new user first sees it: 1440×900, the side bar at its default
// width, five runs (four agents, one of them flagged, and the developers' history). Every cell
// of the table lies inside the panel and shows all its text, and each run's colour is one a
// person tells apart from the others', in the light and the dark theme.
import * as path from 'node:path';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import type { Frame } from 'playwright-core';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { replayHumanHistory } from '../../../src/core/history/replay-history';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { colourDistance, type Rgb } from '../../../webview-ui/colour-distance';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';
import { chartFrame } from './chart';

const agents = path.resolve(__dirname, '../../../../test/fixtures/agents');

function scripted(script: string, env: Record<string, string> = {}): RoleSetup {
  const settings: AgentSettings = { kind: 'custom', command: `python3 ${path.join(agents, script)}`, promptVia: 'stdin', timeoutSec: 120, maxTries: 2, env };
  return { settings };
}

/** Two runs' lines closer than this (CIELAB ΔE) read as one colour; */
const MIN_DISTANCE = 20;
/** a line closer than this to the page behind it is hard to follow. */
const MIN_CONTRAST = 35;

/** Cells that run off the panel or cut their text: a description of each, empty when all fit. */
async function clippedCells(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const panel = document.documentElement.clientWidth;
    const box = document.querySelector('.table-box')!;
    const out: string[] = [];
    if (box.scrollWidth > box.clientWidth + 1) out.push(`the table scrolls: ${box.scrollWidth} px in a ${box.clientWidth} px box`);
    for (const c of Array.from(document.querySelectorAll<HTMLElement>('#runs th, #runs td'))) {
      const r = c.getBoundingClientRect();
      const what = `"${c.innerText.replace(/\s+/g, ' ').trim()}" (${Math.round(r.left)}–${Math.round(r.right)} px)`;
      if (r.left < 0 || r.right > panel + 0.5) out.push(`${what} is outside the ${panel} px panel`);
      else if (c.scrollWidth > c.clientWidth + 1) out.push(`${what} cuts its text (${c.scrollWidth} px in ${c.clientWidth})`);
    }
    return out;
  });
}

/** Each run's colour as its swatch in the table draws it (a pixel of the line's solid start). */
async function runColours(frame: Frame): Promise<{ run: string; rgb: Rgb }[]> {
  return frame.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLTableRowElement>('#runs tbody tr')).map((row) => {
      const c = row.querySelector<HTMLCanvasElement>('canvas.run-swatch');
      const d = c?.getContext('2d')?.getImageData(1, 5, 1, 1).data;
      return { run: row.dataset.run ?? '?', rgb: d ? [d[0], d[1], d[2]] : [-1, -1, -1] };
    }),
  );
}

export async function runsTableScenario(): Promise<string> {
  const task = await prepareDemoTask('runs-table');
  const runtime = new LocalRuntime({ bwrap: await findBubblewrap(), readable: task.sandboxReadable });
  const pytest = { python: 'python3', timeoutMs: 120_000, format: 'junit' as const };
  const env = task.programmerEnv;
  const run = (name: string, programmer: RoleSetup, iterations: number) =>
    startRun({ task: taskFolder(task.taskDir), run: name, roles: { architect: scripted('architect.py'), programmer }, runtime, pytest, iterations });
  // Four agent runs (one inflated: flagged), named so they sort before the replay.
  await run('agent-a', scripted('programmer.py', env), 3);
  await run('agent-b', scripted('programmer.py', env), 1);
  await run('agent-c', scripted('programmer.py', env), 2);
  await run('agent-grows-table', scripted('grow-table.py'), 1);
  await replayHumanHistory({ ...pytest, task: taskFolder(task.taskDir), runtime });

  const shots: string[] = [];
  for (const [theme, name] of [
    ['Default Light Modern', 'runs-table-1440'],
    ['Default Dark Modern', 'runs-table-1440-dark'],
  ] as const) {
    shots.push(
      await withWorkbench({ folder: task.taskDir, name, settings: { 'workbench.colorTheme': theme } }, async (page, wb) => {
        // The default layout: the SWE-CI side bar open beside the chart, at its default width.
        await wb.openSweciView();
        await wb.waitForTreeRow('agent-a');
        await wb.runCommand('SWE-CI: Show Chart');
        const frame = await chartFrame(page);
        await frame.locator('#runs tbody tr').nth(4).waitFor({ timeout: 30_000 });
        const flagged = await frame.locator('#runs td.flagged').first().textContent({ timeout: 30_000 });
        if (!flagged?.includes('agent-grows-table ⚑ inflated')) throw new Error(`the inflated run is not flagged in the runs table: ${flagged}`);
        const sideBar = await page.locator('.part.sidebar').boundingBox();
        if (!sideBar || sideBar.width < 150) throw new Error('the side bar is not open at its default width');
        await frame.locator('#runs').scrollIntoViewIfNeeded();
        await page.waitForTimeout(500);

        const clipped = await clippedCells(frame);
        if (clipped.length) throw new Error(`at 1440 px with the side bar the runs table does not fit:\n  ${clipped.join('\n  ')}`);

        const colours = await runColours(frame);
        if (colours.length !== 5) throw new Error(`expected a swatch for each of the 5 runs: ${JSON.stringify(colours)}`);
        const close: string[] = [];
        for (let i = 0; i < colours.length; i++)
          for (let j = i + 1; j < colours.length; j++) {
            const d = colourDistance(colours[i].rgb, colours[j].rgb);
            if (!(d >= MIN_DISTANCE))
              close.push(`${colours[i].run} rgb(${colours[i].rgb.join(', ')}) and ${colours[j].run} rgb(${colours[j].rgb.join(', ')}): ΔE ${d.toFixed(1)}`);
          }
        // And each stands out from the page behind it.
        const background = await frame.evaluate(() => {
          const c = document.createElement('canvas').getContext('2d')!;
          c.fillStyle = getComputedStyle(document.body).backgroundColor;
          c.fillRect(0, 0, 1, 1);
          const d = c.getImageData(0, 0, 1, 1).data;
          return [d[0], d[1], d[2]] as [number, number, number];
        });
        for (const c of colours) {
          const d = colourDistance(c.rgb, background);
          if (!(d >= MIN_CONTRAST)) close.push(`${c.run} rgb(${c.rgb.join(', ')}) and the background rgb(${background.join(', ')}): ΔE ${d.toFixed(1)}`);
        }
        if (close.length)
          throw new Error(
            `runs whose colours look alike in ${theme} (ΔE < ${MIN_DISTANCE}, or < ${MIN_CONTRAST} from the background):\n  ${close.join('\n  ')}`,
          );
        return wb.screenshot(name);
      }),
    );
  }
  for (const f of shots.slice(1)) console.log(`  also ${path.relative(process.cwd(), f)}`);
  return shots[0];
}
