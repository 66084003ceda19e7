// sweci agents check: does each role's agent work, before a long run? The executable and its
// version, the endpoint and its key, and one real step on a scratch task, as a table. Then which
// runtimes answer here (Docker, Podman, this machine) and why the others do not.
import { readAgentSettings } from '../../core/agents/agent-settings';
import { checkAgents, formatAgentChecks } from '../../core/agents/check/agent-check';
import { openHostRuntime } from '../../core/runtime/task-environment';
import { readRuntimeSettings } from '../../core/runtime/runtime-settings';
import { formatRuntimeProbes, probeRuntimes } from '../../core/runtime/runtime-probe';
import { readModelAccess } from '../../core/agents/model-access';
import { readSettingsFile } from '../../core/util/settings-file';
import { cliSettings } from '../cli-settings';
import { secretEnvOf } from './run-settings';

export interface AgentsCheckValues extends Record<string, unknown> {
  config?: string;
  apiKeyEnv?: string[];
  json?: boolean;
}

export async function agentsCheckCommand(values: AgentsCheckValues, signal: AbortSignal): Promise<number> {
  const file = values.config ? { path: values.config, settings: await readSettingsFile(values.config) } : undefined;
  const settings = cliSettings(values, file);
  const agents = {
    architect: readAgentSettings('architect', settings.read, settings.label),
    programmer: readAgentSettings('programmer', settings.read, settings.label),
  };
  const runtimeSettings = readRuntimeSettings(settings.read, settings.label);
  const runtime = await openHostRuntime(runtimeSettings);
  const model = readModelAccess(settings.read, settings.label);
  try {
    const rows = await checkAgents({
      agents,
      secretEnv: secretEnvOf(values),
      runtime,
      model,
      signal,
      onProgress: (m) => process.stderr.write(`checking the ${m}…\n`),
    });
    process.stdout.write(values.json ? `${JSON.stringify(rows, null, 2)}\n` : `${formatAgentChecks(rows)}\n`);
    // Said beside the table (on standard error: the table and its JSON stay as they are); no runtime failing fails the check.
    process.stderr.write(`${formatRuntimeProbes(await probeRuntimes(runtimeSettings, signal))}\n`);
    return rows.every((r) => r.ok) ? 0 : 1;
  } finally {
    await runtime.dispose();
  }
}
