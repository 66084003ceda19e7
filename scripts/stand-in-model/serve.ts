// The scripted model server as a process of its own, so it can run inside the same loopback-only
// network namespace as the agents it serves:
//   node serve.js --scenario <task-scenario.json> --log <requests.jsonl> [--require-key KEY]
// Prints "listening <port>" once it answers; each answered request is appended to the log.
import { appendFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { ALL_ADAPTERS } from './adapters';
import { startModelServer } from './model-server';
import { taskBrain, type TaskScenario } from './task-brain';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const scenarioFile = arg('--scenario');
  const log = arg('--log');
  if (!scenarioFile || !log) throw new Error('usage: serve.js --scenario <file> --log <file> [--require-key KEY] [--port N]');
  const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8')) as TaskScenario;
  const key = arg('--require-key');
  const server = await startModelServer({
    brain: taskBrain(scenario),
    adapters: ALL_ADAPTERS,
    ...(key ? { requireKey: key } : {}),
    port: Number(arg('--port') ?? '0'),
    onRecorded: (r) => appendFileSync(log, `${JSON.stringify(r)}\n`),
  });
  process.stdout.write(`listening ${server.port}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
