// Curation from the editor: SWE-CI: Find Tasks in This Repository… fills the Candidate Tasks
// view; a candidate's Check Out on This Machine makes it a git-pair task (Check Out Task…'s path).
import * as vscode from 'vscode';
import type { CheckOutTaskCommand } from '../commands/check-out-task';
import { CandidatesTreeProvider, type CandidateNode } from '../curate/candidates-tree';
import { FindTasksCommand, type FindTasksArgs } from '../curate/find-tasks';

export interface CurateFeature {
  candidates: CandidatesTreeProvider;
  find: FindTasksCommand;
}

export function activateCurate(context: vscode.ExtensionContext, checkout: CheckOutTaskCommand): CurateFeature {
  const candidates = new CandidatesTreeProvider();
  const view = vscode.window.createTreeView('sweci.candidates', { treeDataProvider: candidates });
  const find = new FindTasksCommand(context, candidates);
  context.subscriptions.push(
    candidates,
    view,
    candidates.onDidChangeTreeData(() => (view.description = candidates.describe())),
    vscode.commands.registerCommand('sweci.findTasks', (args?: FindTasksArgs) => find.run(args)),
    // From the context menu: the node; from a test or script, a folder too (no prompt, not opened).
    vscode.commands.registerCommand('sweci.checkOutCandidate', (node?: CandidateNode, where?: { targetDir: string }) =>
      node ? checkout.runGitPair(node.repoDir, node.candidate.base, node.candidate.oracle, where?.targetDir) : undefined,
    ),
  );
  return { candidates, find };
}
