// The user plays a role: SWE-CI opens the files, then waits for Submit Iteration (or Stop).
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import * as messages from '../messages';
import type { HumanStepRequest } from '../../core/loop/loop-types';
import { REQUIREMENT_SKELETON } from '../../core/requirement/requirement-skeleton';
import { AbortError } from '../../core/util/errors';
import { log } from '../log';

export class HumanSteps implements vscode.Disposable {
  private waiting: { request: HumanStepRequest; resolve: () => void } | undefined;

  get current(): HumanStepRequest | undefined {
    return this.waiting?.request;
  }

  /** The HumanStep the loop calls. */
  readonly step = async (request: HumanStepRequest): Promise<void> => {
    if (request.signal.aborted) throw new AbortError();
    await this.prepare(request);
    await vscode.commands.executeCommand('setContext', 'sweci.waitingForHuman', true);
    try {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(new AbortError());
        request.signal.addEventListener('abort', onAbort, { once: true });
        this.waiting = {
          request,
          resolve: () => {
            request.signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
      });
    } finally {
      this.waiting = undefined;
      await vscode.commands.executeCommand('setContext', 'sweci.waitingForHuman', false);
    }
  };

  /** SWE-CI: Submit Iteration. false when nothing is waiting. */
  submit(): boolean {
    if (!this.waiting) return false;
    log().info(`The ${this.waiting.request.role} (you) submitted iteration ${this.waiting.request.iteration}`);
    this.waiting.resolve();
    return true;
  }

  private async prepare(request: HumanStepRequest): Promise<void> {
    const what = request.role === 'architect' ? `write the requirements in requirement.xml` : `change the code in app/code to meet requirement.xml`;
    if (request.role === 'architect' && !fs.existsSync(request.requirementFile)) {
      fs.writeFileSync(request.requirementFile, REQUIREMENT_SKELETON);
    }
    if (fs.existsSync(request.requirementFile)) {
      await vscode.window.showTextDocument(vscode.Uri.file(request.requirementFile), { preview: false });
    }
    if (request.problems?.length) {
      void messages.showErrorMessage(
        vscode.l10n.t('requirement.xml is not a valid requirement document: {0}. Fix it and submit again.', request.problems.join('; ')),
      );
    }
    log().info(`Iteration ${request.iteration} of ${request.run}: waiting for you to ${what}`);
    void vscode.window
      .showInformationMessage(
        request.role === 'architect'
          ? vscode.l10n.t('You are the Architect of iteration {0}: {1}, then Submit Iteration.', request.iteration, what)
          : vscode.l10n.t('You are the Programmer of iteration {0}: {1}, then Submit Iteration.', request.iteration, what),
        vscode.l10n.t('Submit Iteration'),
      )
      .then((choice) => {
        if (choice && this.waiting?.request === request) this.submit();
      });
  }

  dispose(): void {
    this.waiting = undefined;
  }
}
