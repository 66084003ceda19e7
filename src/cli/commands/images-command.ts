// sweci images list | prune: the task images SWE-CI loaded into the engine (labelled when it
// loaded them), how much they take against sweci.docker.imageBudgetGb, and removing them: down
// to the budget, or every one no container uses. Images SWE-CI did not load are not shown.
// The engine is Docker's, or with --runtime podman the Podman store --podman-root names.
import { enforceImageBudget, GB, removeUnusedTaskImages, type BudgetOutcome } from '../../core/runtime/docker/image-budget';
import { listTaskImages, type TaskImage } from '../../core/runtime/docker/task-images';
import { imageEngineKind, openImageEngine, type ImageEngine } from '../../core/runtime/image-engine';
import { readRuntimeSettings } from '../../core/runtime/runtime-settings';
import { UserError } from '../../core/util/errors';
import { formatBytes } from '../../core/util/free-space';
import { plural } from '../../core/util/plural';
import { readSettingsFile } from '../../core/util/settings-file';
import { cliSettings } from '../cli-settings';

export interface ImagesValues extends Record<string, unknown> {
  socket?: string;
  runtime?: string;
  podmanRoot?: string;
  podmanRunroot?: string;
  imageBudgetGb?: string;
  config?: string;
  all?: boolean;
  json?: boolean;
}

/** Runs `use` on the engine the flags (or the --config file) name, and lets it go after; `check` refuses first. */
async function withEngine(
  values: ImagesValues,
  use: (engine: ImageEngine, budgetBytes: number) => Promise<number>,
  check: (budgetBytes: number) => void = () => undefined,
): Promise<number> {
  const file = values.config ? { path: values.config, settings: await readSettingsFile(values.config) } : undefined;
  const settings = cliSettings(values, file);
  const runtime = readRuntimeSettings(settings.read, settings.label);
  check(runtime.docker.imageBudgetGb * GB);
  const engine = await openImageEngine(runtime, imageEngineKind(runtime.runtime));
  try {
    return await use(engine, runtime.docker.imageBudgetGb * GB);
  } finally {
    await engine.release();
  }
}

const nameOf = (i: TaskImage): string => i.tags[0] ?? i.id.slice(0, 19);
const when = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');
const inUse = (i: TaskImage): string => (i.containers > 0 ? `yes (${plural(i.containers, 'container')})` : 'no');

const engineJson = (engine: ImageEngine) => ({ runtime: engine.kind, engine: engine.conn.address });

function asJson(i: TaskImage) {
  return { id: i.id, tags: i.tags, tasks: i.tasks, size: i.size, loaded: i.loaded.toISOString(), lastUsed: i.lastUsed.toISOString(), containers: i.containers };
}

function table(images: readonly TaskImage[]): string[] {
  const rows = [
    ['IMAGE', 'TASK', 'SIZE', 'LAST USED', 'IN USE'],
    ...images.map((i) => [nameOf(i), i.tasks.at(-1) ?? '-', formatBytes(i.size), when(i.lastUsed), inUse(i)]),
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 2 ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

const budgetText = (budgetBytes: number): string =>
  budgetBytes > 0 ? `budget ${formatBytes(budgetBytes)}` : 'no budget (sweci.docker.imageBudgetGb, --image-budget-gb)';

export function imagesListCommand(values: ImagesValues): Promise<number> {
  return withEngine(values, (engine, budgetBytes) => list(engine, budgetBytes, values));
}

async function list(engine: ImageEngine, budgetBytes: number, values: ImagesValues): Promise<number> {
  const { conn } = engine;
  // Most recently used first: the ones a budget removes next are at the bottom.
  const images = (await listTaskImages(conn)).sort((a, b) => b.lastUsed.getTime() - a.lastUsed.getTime());
  const total = images.reduce((n, i) => n + i.size, 0);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ...engineJson(engine), budget: budgetBytes, total, images: images.map(asJson) }, null, 2)}\n`);
    return 0;
  }
  if (images.length === 0) {
    process.stdout.write(`No task images SWE-CI loaded are in ${engine.where}.\n`);
    return 0;
  }
  const lines = [...table(images), '', `${plural(images.length, 'task image')} SWE-CI loaded, ${formatBytes(total)}; ${budgetText(budgetBytes)}.`];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

export function imagesPruneCommand(values: ImagesValues): Promise<number> {
  return withEngine(
    values,
    (engine, budgetBytes) => prune(engine, budgetBytes, values),
    (budgetBytes) => {
      if (!values.all && budgetBytes <= 0) {
        throw new UserError(
          'sweci images prune needs a budget to prune down to: --image-budget-gb <GB> (or sweci.docker.imageBudgetGb in a --config file), or --all to remove every task image SWE-CI loaded that no container uses.',
        );
      }
    },
  );
}

async function prune(engine: ImageEngine, budgetBytes: number, values: ImagesValues): Promise<number> {
  const { conn } = engine;
  const outcome: BudgetOutcome = values.all ? await removeUnusedTaskImages(conn) : await enforceImageBudget(conn, budgetBytes);
  const left = await listTaskImages(conn);
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ ...engineJson(engine), budget: values.all ? null : budgetBytes, removed: outcome.removed.map(asJson), left: left.map(asJson), total: outcome.total, over: outcome.over }, null, 2)}\n`,
    );
    return 0;
  }
  const lines = outcome.removed.map((i) => `removed ${nameOf(i)}  ${formatBytes(i.size)}  last used ${when(i.lastUsed)}`);
  const freed = outcome.removed.reduce((n, i) => n + i.size, 0);
  lines.push(
    `${outcome.removed.length === 0 ? 'Nothing to remove' : `Removed ${plural(outcome.removed.length, 'task image')} (${formatBytes(freed)})`}; ${plural(left.length, 'task image')} left (${formatBytes(outcome.total)})${values.all ? '' : `, ${budgetText(budgetBytes)}`}.`,
  );
  const held = left.filter((i) => i.containers > 0);
  if (outcome.over > 0 || (values.all && held.length > 0))
    lines.push(
      `${plural(held.length, 'image')} in use by containers stayed${outcome.over > 0 ? `, ${formatBytes(outcome.over)} over the budget` : ''}: prune again once their tasks are closed.`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
