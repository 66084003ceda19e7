// Curation from the editor: SWE-CI: Find Tasks in This Repository… fills the Candidate Tasks
// view; a candidate's Check Out on This Machine makes it a git-pair task (Check Out Task…'s path),
// its Build Environment and Check Out the same task with tests in its oracle's built image.
import * as vscode from 'vscode';
import type { CheckOutTaskCommand } from '../commands/check-out-task';
import { CandidatesTreeProvider, type CandidateNode } from '../curate/candidates-tree';
import { BuildCandidateCommand } from '../curate/build-environment';
import { FindTasksCommand, type FindTasksArgs } from '../curate/find-tasks';

export interface CurateFeature {
  candidates: CandidatesTreeProvider;
  find: FindTasksCommand;
}

export function activateCurate(context: vscode.ExtensionContext, checkout: CheckOutTaskCommand): CurateFeature {
  const candidates = new CandidatesTreeProvider();
  const view = vscode.window.createTreeView('sweci.candidates', { treeDataProvider: candidates });
  const find = new FindTasksCommand(context, candidates);
  const build = new BuildCandidateCommand(context, checkout);
  context.subscriptions.push(
    candidates,
    view,
    candidates.onDidChangeTreeData(() => (view.description = candidates.describe())),
    vscode.commands.registerCommand('sweci.findTasks', (args?: FindTasksArgs) => find.run(args)),
    // From the context menu: the node; from a test or script, a folder too (no prompt, not opened).
    vscode.commands.registerCommand('sweci.checkOutCandidate', (node?: CandidateNode, where?: { targetDir: string }) =>
      node ? checkout.runGitPair(node.repoDir, node.candidate.base, node.candidate.oracle, where?.targetDir) : undefined,
    ),
    vscode.commands.registerCommand('sweci.buildCandidateEnvironment', (node?: CandidateNode, where?: { targetDir: string }) => build.run(node, where)),
  );
  return { candidates, find };
}
