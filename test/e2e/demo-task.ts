// A checked-out demo task for e2e scenarios, prepared once per run with the core engine
// (the integration tests cover checking out through the command).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkOutTask } from '../../src/core/checkout/check-out-task';
import { LocalRuntime } from '../../src/core/runtime/local-runtime';
import { readDatasetTasks } from '../../src/core/task/dataset';
import { buildDemoDataset } from '../../scripts/demo-dataset';

export interface PreparedTask {
  taskDir: string;
  oracleDir: string;
  /** First-parent commits base..target of the demo history. */
  commits: string[];
  expectedGap: number;
  passedNow: number;
  passedByTarget: number;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
let dataset: Promise<Awaited<ReturnType<typeof buildDemoDataset>>> | undefined;

/** Checks the demo task out into a new folder named `name`. */
export async function prepareDemoTask(name: string): Promise<PreparedTask> {
  dataset ??= buildDemoDataset(path.join(scratch, 'dataset'));
  const demo = await dataset;
  const spec = (await readDatasetTasks(demo.datasetDir, demo.split)).find((t) => t.id === demo.taskId)!;
  const taskDir = path.join(scratch, name);
  const result = await checkOutTask(spec, {
    python: 'python3',
    timeoutMs: 600_000,
    format: 'auto',
    taskDir,
    oracleDir: path.join(scratch, `${name}.oracle`),
    runtime: new LocalRuntime(),
    runTests: true,
  });
  if (result.current?.gap !== demo.expectedGap) {
    throw new Error(`the demo task's gap is ${result.current?.gap}, expected ${demo.expectedGap}`);
  }
  return { taskDir, oracleDir: path.join(scratch, `${name}.oracle`), commits: demo.commits, expectedGap: demo.expectedGap, passedNow: demo.targetPassed - demo.expectedGap, passedByTarget: demo.targetPassed };
}
