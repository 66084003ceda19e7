// Task sequences from the editor: SWE-CI: Run Sequence… (the chart shows a sequence's results).
import * as vscode from 'vscode';
import type { ApiKeys } from '../agents/api-keys';
import { RunSequenceCommand, type RunSequenceArgs } from '../commands/run-sequence';

export function activateSequence(context: vscode.ExtensionContext, keys: ApiKeys): RunSequenceCommand {
  const command = new RunSequenceCommand(context, keys);
  context.subscriptions.push(vscode.commands.registerCommand('sweci.runSequence', (args?: RunSequenceArgs) => command.run(args)));
  return command;
}
