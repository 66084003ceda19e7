// bench:transcript-panel — opens a 500-call transcript in the Transcript panel's bundle (built
// here with esbuild, as `npm run build` does) in headless chromium, on the page an exported
// report writes for a try (transcriptPageHtml: the same bundle, standalone, the transcript
// embedded), and prints the time from running the bundle to the first frame with the calls
// drawn, then the frame times while scrolling from the top to the bottom, 400 px a frame.
// Budget: first render 1,000 ms. Needs Debian's chromium (bash scripts/setup.sh).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { launchChromium, repoRoot } from '../test/harness/code-server';
import { runToFirstFrame } from './first-frame';
import { panelCss } from '../src/core/report/panel-assets';
import { transcriptPageHtml } from '../src/core/report/report-html';
import type { Transcript, TranscriptCall } from '../src/shared/transcript-schema';

const CALLS = 500;
const BUDGET_MS = 1000;
const RUNS = 3;

/** A programmer's long try: each call runs a command or writes a file, with its output. */
export function syntheticTranscript(calls = CALLS): Transcript {
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const file = (i: number, v: number) => Array.from({ length: 60 + rand(60) }, (_, k) => `def f_${i}_${k}(x):\n    return x * ${v + k}`).join('\n');
  const out: TranscriptCall[] = [];
  let input: TranscriptCall['input'] = [{ kind: 'text', role: 'user', text: `# Role: Programmer\n\n${'Implement the requirements.\n'.repeat(40)}` }];
  for (let n = 1; n <= calls; n++) {
    const write = n % 4 === 0;
    const id = `call_${n}`;
    const tc = write
      ? { id, name: 'Write', input: { file_path: `/work/app/code/src/module_${n % 25}.py`, content: file(n % 25, n) } }
      : { id, name: 'Bash', input: { command: `python -m pytest tests/test_${n % 40}.py -q`, description: 'run the tests' } };
    out.push({
      call: n,
      model: 'sweci-coder',
      input,
      output: [
        { kind: 'reasoning', text: `Step ${n}: ${'thinking about the failing tests. '.repeat(6)}` },
        { kind: 'text', role: 'assistant', text: `Call ${n}: ${write ? 'writing the module' : 'running the tests'} to see where the gap is.` },
        { kind: 'tool-call', ...tc },
      ],
      toolCalls: [tc],
      usage: { input: 20_000 + n * 150, output: 200 + rand(800), cached: 18_000 + n * 140, reasoning: 50 },
      costUsd: 0.01 + rand(100) / 10_000,
      ms: 800 + rand(6000),
      status: 200,
    });
    const output = write
      ? 'File written.'
      : Array.from({ length: 10 + rand(40) }, (_, k) => `tests/test_${n % 40}.py::test_case_${k} ${k % 7 ? 'PASSED' : 'FAILED'}`).join('\n');
    input = [{ kind: 'tool-result', id, output }];
  }
  const sum = (f: (c: TranscriptCall) => number) => out.reduce((s, c) => s + f(c), 0);
  return {
    source: 'gateway',
    role: 'programmer',
    iteration: 3,
    try: 1,
    run: 'bench',
    agent: 'claude',
    system: 'You are a coding agent.',
    tools: [{ name: 'Bash' }, { name: 'Write' }, { name: 'Edit' }, { name: 'Read' }],
    calls: out,
    totals: {
      calls: out.length,
      usage: {
        input: sum((c) => c.usage!.input),
        output: sum((c) => c.usage!.output),
        cached: sum((c) => c.usage!.cached),
        reasoning: sum((c) => c.usage!.reasoning),
      },
      costUsd: sum((c) => c.costUsd!),
      ms: sum((c) => c.ms!),
    },
    notes: [],
  };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<number> {
  const root = repoRoot();
  const bundle = await esbuild.build({
    entryPoints: [path.join(root, 'webview-ui', 'transcript-view.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
  });
  const script = bundle.outputFiles[0].text;
  const css = await panelCss(root, 'transcript.css');
  const transcript = syntheticTranscript();
  // The page as the report writes it, but with the bundle run by the bench (to time it).
  const page0 = transcriptPageHtml({ title: 'bench', script: 'window.__loaded = 1;', css, payload: { transcript, title: 'bench' } });
  const browser = await launchChromium();
  try {
    const firsts: number[] = [];
    let frames: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.setContent(page0);
      const first = await runToFirstFrame(page, script);
      if ((await page.locator('section.call').count()) === 0) throw new Error('no call was drawn');
      firsts.push(first);
      if (run === RUNS - 1) {
        frames = await page.evaluate(async () => {
          const times: number[] = [];
          let last = performance.now();
          while (window.scrollY + window.innerHeight < document.body.scrollHeight - 2) {
            window.scrollBy(0, 400);
            await new Promise((r) => requestAnimationFrame(r));
            const now = performance.now();
            times.push(now - last);
            last = now;
          }
          return times;
        });
        const shot = path.join(root, 'test-results', 'bench-transcript-panel.png');
        fs.mkdirSync(path.dirname(shot), { recursive: true });
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: shot });
        const built = await page.evaluate(() => document.querySelectorAll('section.call.built').length);
        console.log(`after scrolling to the bottom: ${built} of ${CALLS} call bodies built (built as they come near the view)`);
      }
      await page.close();
    }
    console.log(
      `transcript of ${CALLS} calls: first render ${firsts.map((f) => f.toFixed(0)).join(', ')} ms (runs; budget ${BUDGET_MS} ms); ` +
        `scrolling ${frames.length} frames of 400 px: p50 ${pct(frames, 50).toFixed(1)} ms, p95 ${pct(frames, 95).toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms`,
    );
    if (firsts[0] > BUDGET_MS) {
      console.error(`over budget: ${firsts[0].toFixed(0)} ms > ${BUDGET_MS} ms`);
      return 1;
    }
    return 0;
  } finally {
    await browser.close();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
