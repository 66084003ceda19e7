// Run in a child node process by report-memory.test.ts: one way the harness reads a hostile
// report, then this process's peak memory (VmHWM) and the outcome, as one JSON line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJsonReport } from '../../../src/core/pytest/parse-json-report';
import { runPytest, MAX_REPORT_BYTES } from '../../../src/core/pytest/run-pytest';
import { readAgentFile } from '../../../src/core/util/agent-file';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';

async function main(): Promise<string> {
  const [scenario, arg, python] = process.argv.slice(2);
  if (scenario === 'json-file') {
    // What runPytest does with a json-report file: read it sized, then parse it.
    const read = await readAgentFile(arg, MAX_REPORT_BYTES);
    if (read.kind !== 'ok') return `not read: ${read.kind}`;
    try {
      const report = parseJsonReport(read.data.toString('utf8'));
      return `parsed ${report.tests.length} tests`;
    } catch (err) {
      return `refused: ${(err as Error).message}`;
    }
  }
  // A real pytest run on the project at `arg`; its report folder beside it.
  const run = await runPytest(new LocalRuntime(), {
    python,
    codeDir: arg,
    reportFile: path.join(`${arg}-out`, 'raw-report'),
    format: scenario === 'junit-run' ? 'junit' : 'builtin',
    timeoutMs: 300_000,
  });
  return run.kind === 'ran' ? `ran ${run.report.tests.length} tests` : `did not run: ${run.reason}`;
}

void main().then(
  (outcome) => {
    const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
    process.stdout.write(`${JSON.stringify({ outcome, hwm })}\n`);
  },
  (err: Error) => {
    process.stderr.write(`${err.stack}\n`);
    process.exit(2);
  },
);
