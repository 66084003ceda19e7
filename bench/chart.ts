// bench:chart — draws the per-test heatmap for 5,000 tests × 20 iterations in headless
// chromium (the same drawing module the webview uses, bundled alone for the browser) and
// prints the time. Budget: 500 ms. Needs Debian's chromium (bash scripts/setup.sh).
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { launchChromium, repoRoot } from '../test/harness/code-server';
import type { HeatmapData } from '../src/shared/chart-types';

const TESTS = 5000;
const ITERATIONS = 20;
const BUDGET_MS = 500;
const RUNS = 5;

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
