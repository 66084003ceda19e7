// Benchmark: what the bytecode seed saves a pytest run. The same ten runs of a 20-test project,
// through runPytest in the sandbox as the loop makes them (a fresh bytecode prefix each run),
// either filled from the seed (`seed`) or empty (`fresh`, as before the seed: Python compiles
// pytest, its plugins and the standard modules they import on every run). The first run of
// `seed` builds the seed, as a task's first run does. farm-bench times the two A B A B:
//
//   npm run compile
//   farm-bench -n 5 -- node out/bench/pytest-seed.js seed --vs 'node out/bench/pytest-seed.js fresh'
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPytest } from '../src/core/pytest/run-pytest';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { findBubblewrap } from '../src/core/runtime/sandbox';

const RUNS = Number(process.env.SWECI_BENCH_RUNS ?? 10);
const PYTHON = process.env.SWECI_PYTHON ?? 'python3';

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'seed' && mode !== 'fresh') throw new Error('usage: pytest-seed.js seed|fresh');
  const bwrap = await findBubblewrap();
  const runtime = new LocalRuntime(bwrap ? { bwrap } : {});
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-seed-')));
  const code = path.join(dir, 'code');
  await fs.mkdir(path.join(code, 'tests'), { recursive: true });
  for (let i = 0; i < 20; i++) {
    await fs.writeFile(path.join(code, 'tests', `test_${i}.py`), `def test_${i}():\n    assert ${i} + 1 == ${i + 1}\n`);
  }
  try {
    for (let i = 0; i < RUNS; i++) {
      const run = await runPytest(runtime, {
        python: PYTHON,
        codeDir: code,
        reportFile: path.join(dir, 'out', 'report.json'),
        format: 'builtin',
        confine: { hide: [] },
        discardDir: path.join(dir, 'discard'),
        ...(mode === 'seed' ? { bytecodeSeedDir: path.join(dir, 'seed') } : {}),
      });
      if (run.kind !== 'ran' || run.report.summary.passed !== 20) throw new Error(`run ${i}: ${run.output}`);
    }
  } finally {
    await runtime.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
