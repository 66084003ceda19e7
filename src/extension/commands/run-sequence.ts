// SWE-CI: Run Sequence… — the tasks of a SWE-Bench-CL sequence, in order, into an experiment
// folder, with the agents of the settings (as `sweci run --sequence` does from the CLI). Memory is
// the sweci.sequence.memory setting. Cancelling stops between steps; running it again on the same
// folder continues. At the end it says the sequence's scores and offers to open a task, whose
// chart then shows the results matrix.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { BatchEvent } from '../../core/batch/batch-types';
import { readExperiment } from '../../core/batch/experiment';
import { chooseSequence, readSequenceFile, runNameFor, sequenceSpecs, startSequence } from '../../core/sequence/sequence-run';
import { summarizeSequence, type SequenceSummary } from '../../core/sequence/sequence-summary';
import type { SweBenchClSequence } from '../../core/task/swe-bench-instance';
import { UserError } from '../../core/util/errors';
import type { ApiKeys } from '../agents/api-keys';
import { runSettings, sequenceSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import { plural } from './checkout-choices';
import { pickFolder } from './pick-folder';

/** Inputs of the command; given as an argument they replace the prompts (tests, scripts). */
export interface RunSequenceArgs {
  sequenceFile: string;
  sequenceId?: string;
  repoPath: string;
  experimentDir: string;
}

const LAST_SEQUENCES = 'sweci.lastSequenceFile';
const LAST_CLONE = 'sweci.lastCloneDir';
const LAST_EXPERIMENT = 'sweci.lastSequenceExperiment';
const OPEN_TASK = 'Open Last Task';

export class RunSequenceCommand {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly keys: ApiKeys,
  ) {}

  async run(args?: RunSequenceArgs): Promise<SequenceSummary | undefined> {
    try {
      const chosen = args ?? (await this.prompt());
      if (!chosen) return undefined;
      return await this.start(chosen, !args);
    } catch (err) {
      showError(vscode.l10n.t('Run Sequence failed'), err);
      if (args) throw err;
      return undefined;
    }
  }

  private async prompt(): Promise<RunSequenceArgs | undefined> {
    const file = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose a SWE-Bench-CL sequence file'),
      openLabel: vscode.l10n.t('Use Sequences'),
      lastKey: LAST_SEQUENCES,
      files: { [vscode.l10n.t('SWE-Bench-CL sequences (JSON)')]: ['json'] },
      check: (f) => readSequenceFile(f),
    });
    if (!file) return undefined;
    const sequences = file.value;
    const sequence =
      sequences.length === 1
        ? sequences[0]
        : (
            await vscode.window.showQuickPick(
              sequences.map((q) => ({
                label: q.id,
                description: `${q.repo} · ${q.tasks.length === 1 ? vscode.l10n.t('1 task') : vscode.l10n.t('{0} tasks', q.tasks.length)}`,
                q,
              })),
              { title: vscode.l10n.t('SWE-CI: which sequence?') },
            )
          )?.q;
    if (!sequence) return undefined;
    const clone = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose the local clone of {0}', sequence.repo),
      openLabel: vscode.l10n.t('Use Clone'),
      lastKey: LAST_CLONE,
      check: (dir) => sequenceSpecs(sequence, file.dir, { repoPath: dir }),
    });
    if (!clone) return undefined;
    const experiment = await pickFolder(this.context, {
      title: vscode.l10n.t('Choose an empty folder for the runs of {0} (or the folder of an earlier try, to continue)', sequence.id),
      openLabel: vscode.l10n.t('Run Here'),
      lastKey: LAST_EXPERIMENT,
      check: (dir) => checkExperimentFolder(dir, sequence),
    });
    if (!experiment) return undefined;
    return { sequenceFile: file.dir, sequenceId: sequence.id, repoPath: clone.dir, experimentDir: experiment.dir };
  }

  private async start(args: RunSequenceArgs, offerToOpen: boolean): Promise<SequenceSummary | undefined> {
    const file = path.resolve(args.sequenceFile);
    const experimentDir = path.resolve(args.experimentDir);
    const sequence = chooseSequence(await readSequenceFile(file), file, args.sequenceId);
    await checkExperimentFolder(experimentDir, sequence);
    const settings = runSettings();
    const agents = settings.agents;
    for (const role of ['architect', 'programmer'] as const) {
      if (agents[role].kind === 'human')
        throw new UserError(`A sequence runs without a person at each step: choose an agent for the ${role} (sweci.${role}.agent).`, {
          setting: `${role}.agent`,
        });
    }
    const { memory, weights, cells } = sequenceSettings();
    const secretEnv = await this.keys.environment();
    const run = (await readExperiment(experimentDir))?.run ?? runNameFor(agents.architect, agents.programmer, Object.values(secretEnv));
    log().info(
      `Run Sequence: ${sequence.id} (${plural(sequence.tasks.length, 'task')}, memory ${memory ? 'on' : 'off'}, matrix ${cells}, run ${run}) into ${experimentDir}`,
    );
    const result = await withCancellableProgress(vscode.l10n.t('SWE-CI: sequence {0}', sequence.id), async ({ report, signal }) => {
      report('resolving the tasks on the clone');
      const specs = await sequenceSpecs(sequence, file, { repoPath: args.repoPath }, signal);
      const onEvent = (e: BatchEvent) => {
        if (e.type === 'task-activity') report(`${e.task}: ${e.activity}`);
        else if (e.type === 'task-status') {
          report(`${e.status.task}: ${e.status.state}`);
          log().info(`Run Sequence: ${e.status.task} ${e.status.state}${e.status.reason ? ` (${e.status.reason})` : ''}`);
        }
      };
      return startSequence(file, sequence, specs, {
        experimentDir,
        run,
        humanHistory: false,
        signal,
        onEvent,
        settings,
        secretEnv,
        sequenceId: sequence.id,
        memory,
        cells,
      });
    });
    const summary = await summarizeSequence(experimentDir, { weights });
    const done = result.results.matrix.filter((r) => r !== null).length;
    const metric = (name: 'acc' | 'bwt') => summary?.metrics[name]?.toFixed(3) ?? 'n/a';
    const lastDone = result.results.matrix
      .map((r, i) => (r ? i : -1))
      .filter((i) => i >= 0)
      .pop();
    const text = `Sequence ${sequence.id}: ${done} of ${plural(sequence.tasks.length, 'task')} done · ACC ${metric('acc')} · BWT ${metric('bwt')}.${done < sequence.tasks.length ? ' Run Sequence on the same folder again to continue.' : ''}`;
    log().info(`Run Sequence: ${text}`);
    // Not awaited: a notification's promise settles only when it is closed.
    if (offerToOpen && lastDone !== undefined) {
      const taskDir = path.join(experimentDir, result.results.tasks[lastDone]);
      void messages.showInformationMessage(text, OPEN_TASK).then((choice) => {
        if (choice === OPEN_TASK) void vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(taskDir));
      });
    } else void messages.showInformationMessage(text);
    return summary;
  }
}

/** An empty folder, or one holding this sequence's experiment (to continue it). */
async function checkExperimentFolder(dir: string, sequence: SweBenchClSequence): Promise<string> {
  const record = await readExperiment(dir);
  if (record) {
    if (record.sequence?.id !== sequence.id)
      throw new UserError(`${dir} holds the runs of ${record.sequence ? `sequence ${record.sequence.id}` : 'a dataset'}; choose an empty folder.`);
    return dir;
  }
  const entries = await fs.readdir(dir).catch(() => [] as string[]);
  if (entries.some((e) => !e.startsWith('.'))) throw new UserError(`${dir} is not empty and holds no sequence's runs; choose an empty folder.`);
  return dir;
}
