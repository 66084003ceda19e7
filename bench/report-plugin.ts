// Benchmark: what our pytest report plugin costs. The same synthetic project (passing,
// failing, parametrized and logging tests) of 500, 2,000 and 8,000 tests is run by runPytest on
// this machine's interpreter with `builtin` and with `junit` (pytest's own writer), in turn
// (builtin, junit, builtin, junit, …) so drift hits both alike. Prints medians, the
// builtin/junit ratio per size, and how builtin scales with the number of tests.
//
//   npm run compile && npm run bench:plugin
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPytest } from '../src/core/pytest/run-pytest';
import type { ReportFormat } from '../src/core/pytest/pytest-command';
import { LocalRuntime } from '../src/core/runtime/local-runtime';

const SIZES = [500, 2_000, 8_000];
const RUNS = 5;
const PYTHON = process.env.SWECI_TEST_PYTHON ?? 'python3';
const PER_FILE = 100;

function writeProject(root: string, tests: number): void {
  fs.mkdirSync(path.join(root, 'tests'), { recursive: true });
  for (let f = 0; f * PER_FILE < tests; f++) {
    const lines = ['import logging', 'import pytest', '', 'log = logging.getLogger(__name__)', ''];
    const here = Math.min(PER_FILE, tests - f * PER_FILE);
    // A quarter parametrized, one in ten failing with a log record and captured output.
    const params = Math.floor(here / 4);
    lines.push(`@pytest.mark.parametrize("n", range(${params}))`, 'def test_param(n):', '    assert n >= 0', '');
    for (let i = 0; i < here - params; i++) {
      if (i % 10 === 0) lines.push(`def test_fails_${i}():`, `    log.warning("value %s", ${i}.5)`, `    print("out ${i}")`, `    assert ${i} == -1`, '');
      else lines.push(`def test_ok_${i}():`, `    assert ${i} >= 0`, '');
    }
    fs.writeFileSync(path.join(root, 'tests', `test_f${f}.py`), lines.join('\n'));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const rt = new LocalRuntime();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-bench-plugin-'));
  const builtinAt = new Map<number, number>();
  console.log(`pytest on ${PYTHON}, ${RUNS} runs per format and size, alternating\n`);
  console.log('tests    builtin (ms)   junit (ms)   builtin/junit');
  try {
    for (const size of SIZES) {
      const code = path.join(tmp, `p${size}`, 'code');
      writeProject(code, size);
      const times: Record<'builtin' | 'junit', number[]> = { builtin: [], junit: [] };
      const ratios: number[] = [];
      for (let i = 0; i < RUNS + 1; i++) {
        const pair: Partial<Record<ReportFormat, number>> = {};
        for (const format of ['builtin', 'junit'] as const) {
          const run = await runPytest(rt, { python: PYTHON, codeDir: code, reportFile: path.join(tmp, `p${size}`, 'out', 'raw-report'), format });
          if (run.kind !== 'ran' || run.report.tests.length !== size)
            throw new Error(`${format} at ${size}: ${run.kind === 'ran' ? `${run.report.tests.length} tests` : run.reason}`);
          pair[format] = run.durationMs;
        }
        if (i === 0) continue; // warm-up: the interpreter's files into the page cache
        times.builtin.push(pair.builtin!);
        times.junit.push(pair.junit!);
        ratios.push(pair.builtin! / pair.junit!);
      }
      builtinAt.set(size, median(times.builtin));
      console.log(
        `${String(size).padStart(5)}    ${median(times.builtin).toFixed(0).padStart(12)}   ${median(times.junit).toFixed(0).padStart(10)}   ${median(ratios).toFixed(2).padStart(13)}`,
      );
    }
    const [small, , large] = SIZES;
    console.log(
      `\nscaling of builtin: ${large / small}× the tests took ${(builtinAt.get(large)! / builtinAt.get(small)!).toFixed(2)}× the time (pytest's start-up included)`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await rt.dispose();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
