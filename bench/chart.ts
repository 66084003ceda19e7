// bench:chart — builds the per-test heatmap's data for 5,000 tests × 20 iterations from their
// reports (transition matrix, regressions, encoded cells; budget 2 s, CPU and wall), then draws
// it in headless chromium (the same drawing module the webview uses, bundled alone for the
// browser) and prints the time. Budget: 500 ms. Needs Debian's chromium (bash scripts/setup.sh).
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { launchChromium, repoRoot } from '../test/harness/code-server';
import type { HeatmapData } from '../src/shared/chart-types';
import { buildTransitionMatrix, encodeCells, regressedTests } from '../src/shared/metrics/transitions';

const TESTS = 5000;
const ITERATIONS = 20;
const BUDGET_MS = 500;
const RUNS = 5;
const BUILD_BUDGET_MS = 2000;

/** Building the heatmap's data from 21 reports of 5,000 tests: wall and CPU ms of the median of RUNS. */
function buildTimes(): { wall: number; cpu: number } {
  const ids = Array.from({ length: TESTS }, (_, i) => `tests/test_m.py::test_${i}`);
  const cols = Array.from({ length: ITERATIONS + 1 }, (_, c) => ({
    iteration: c,
    report: c === 7 ? undefined : { tests: ids.map((nodeid, i) => ({ nodeid, outcome: (i + c) % 5 === 0 ? 'failed' : 'passed' })) },
  }));
  const runs = Array.from({ length: RUNS }, () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const matrix = buildTransitionMatrix(ids, cols);
    encodeCells(matrix.cells);
    regressedTests(matrix);
    const cpu = process.cpuUsage(cpu0);
    return { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 };
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
}

/** A deterministic matrix with realistic structure: most tests pass, some flip and regress. */
function syntheticHeatmap(): HeatmapData {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let cells = '';
  for (let t = 0; t < TESTS; t++) {
    const fixedAt = rand() < 0.3 ? Math.floor(rand() * ITERATIONS) : rand() < 0.9 ? 0 : ITERATIONS;
    for (let i = 0; i < ITERATIONS; i++) {
      const r = rand();
      // '0' missing, '1' passed, '2' failed, '3' error.
      cells += i < fixedAt ? (r < 0.1 ? '3' : r < 0.15 ? '0' : '2') : r < 0.02 ? '2' : '1';
    }
  }
  return {
    run: 'bench',
    tests: Array.from({ length: TESTS }, (_, t) => `tests/test_mod_${Math.floor(t / 50)}.py::test_case_${t}`),
    columns: Array.from({ length: ITERATIONS }, (_, i) => ({ iteration: i, ran: true })),
    cells,
    regressions: Array.from({ length: ITERATIONS - 1 }, (_, i) => ({
      iteration: i + 1,
      comparedWith: i,
      tests: Array.from({ length: 100 }, (_, k) => (k * 47 + i * 13) % TESTS),
    })),
  };
}

async function main(): Promise<number> {
  const built = buildTimes();
  const load = (await import('node:os')).loadavg()[0].toFixed(1);
  console.log(
    `heatmap data ${TESTS} tests × ${ITERATIONS} iterations: ${built.wall.toFixed(0)} ms (${built.cpu.toFixed(0)} ms CPU), median of ${RUNS}, load ${load} (budget ${BUILD_BUDGET_MS} ms)`,
  );
  if (built.cpu > BUILD_BUDGET_MS) {
    console.error(`over budget: building the data took ${built.cpu.toFixed(0)} ms of CPU > ${BUILD_BUDGET_MS} ms`);
    return 1;
  }
  const bundle = await esbuild.build({
    entryPoints: [path.join(repoRoot(), 'webview-ui', 'heatmap.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'SweciHeatmap',
    platform: 'browser',
    target: 'es2022',
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.setContent('<!DOCTYPE html><html><body><canvas id="heatmap"></canvas></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
    const heatmap = syntheticHeatmap();
    const times = await page.evaluate(
      ({ h, runs }) => {
        const canvas = document.getElementById('heatmap') as HTMLCanvasElement;
        const colours = { passed: '#388a34', failed: '#e51400', error: '#d18616', missing: '#d4d4d4', background: '#ffffff', foreground: '#3b3b3b' };
        const api = (window as unknown as { SweciHeatmap: typeof import('../webview-ui/heatmap') }).SweciHeatmap;
        const out: number[] = [];
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          api.drawHeatmap(canvas, h, colours, 1000);
          // Reading a pixel back waits until the draw has really happened.
          canvas.getContext('2d')!.getImageData(0, 0, 1, 1);
          out.push(performance.now() - t0);
        }
        return out;
      },
      { h: heatmap, runs: RUNS },
    );
    const first = times[0];
    const best = Math.min(...times);
    console.log(
      `heatmap ${TESTS} tests × ${ITERATIONS} iterations: first draw ${first.toFixed(1)} ms, best of ${RUNS} ${best.toFixed(1)} ms (budget ${BUDGET_MS} ms)`,
    );
    if (first > BUDGET_MS) {
      console.error(`over budget: ${first.toFixed(1)} ms > ${BUDGET_MS} ms`);
      return 1;
    }
    return 0;
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
