// Benchmark: what the allow-list sandbox costs a step. The same steps — an agent-like command
// (python writes a file in app/ and runs git) and a pytest run of a small project — run N times
// through the LocalRuntime, confined (`sandbox`: bubblewrap, the sandbox user when run by root,
// a control group with the step's limits, its folders handed over and back, the tools' views)
// or plain. SWECI_BENCH_ONLY=pytest runs the pytest runs alone. farm-bench times the two modes
// A B A B and prints the ratio:
//
//   npm run compile
//   farm-bench -n 5 -- node out/bench/sandbox.js sandbox --vs 'node out/bench/sandbox.js plain'
//   SWECI_BENCH_ONLY=pytest farm-bench -n 5 -- node out/bench/sandbox.js sandbox --vs 'node out/bench/sandbox.js plain'
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalRuntime } from '../src/core/runtime/local-runtime';
import { findBubblewrap } from '../src/core/runtime/sandbox';

const STEPS = Number(process.env.SWECI_BENCH_STEPS ?? 10);
const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
const PYTEST_ONLY = process.env.SWECI_BENCH_ONLY === 'pytest';

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== 'sandbox' && mode !== 'plain') throw new Error('usage: sandbox.js sandbox|plain');
  const bwrap = mode === 'sandbox' ? await findBubblewrap() : undefined;
  if (mode === 'sandbox' && !bwrap) throw new Error('bubblewrap cannot run here');
  const runtime = new LocalRuntime(bwrap ? { bwrap } : {});
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-bench-sandbox-')));
  const app = path.join(dir, 'app');
  await fs.mkdir(path.join(app, 'code', 'tests'), { recursive: true });
  for (let i = 0; i < 20; i++) {
    await fs.writeFile(path.join(app, 'code', 'tests', `test_${i}.py`), `def test_${i}():\n    assert ${i} + 1 == ${i + 1}\n`);
  }
  const mounts = [{ source: app, target: '/app' }];
  const confine = { hide: [] };
  try {
    for (let i = 0; i < STEPS; i++) {
      const agent = PYTEST_ONLY
        ? { exitCode: 0, stderr: '' }
        : await runtime.run({
            command: PYTHON,
            args: ['-c', `import subprocess; open('step-${i}.txt', 'w').write('x'); subprocess.run(['git', '--version'], check=True, capture_output=True)`],
            cwd: app,
            mounts,
            confine,
          });
      const tests = await runtime.run({
        command: PYTHON,
        args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'],
        cwd: path.join(app, 'code'),
        mounts,
        confine,
      });
      if (agent.exitCode !== 0 || tests.exitCode !== 0) throw new Error(`step ${i} failed: ${agent.stderr}${tests.stdout}${tests.stderr}`);
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
