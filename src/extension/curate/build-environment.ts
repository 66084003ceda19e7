// A candidate's Build Environment and Check Out: the curation's env stage for its oracle (the
// Dockerfile from the oracle's configuration, built on the engine, the oracle's tests collected,
// missing modules repaired), then the span checked out as a git-pair task whose tests run in
// that image. Each step under a cancellable progress; a build that fails says why.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckOutResult } from '../../core/checkout/check-out-task';
import { buildCandidateEnvironment } from '../../core/curate/env-stage';
import { connectDocker, pingEngine } from '../../core/runtime/docker/docker-connection';
import { UserError } from '../../core/util/errors';
import type { CheckOutTaskCommand } from '../commands/check-out-task';
import { curateSettings, runtimeSettings } from '../config';
import { showError } from '../errors';
import { log } from '../log';
import { withCancellableProgress } from '../progress';
import type { CandidateNode } from './candidates-tree';

export class BuildCandidateCommand {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly checkout: CheckOutTaskCommand,
  ) {}

  /** `targetDir` given (tests, scripts): no prompt, the folder not opened, failures thrown. */
  async run(node: CandidateNode | undefined, where?: { targetDir: string }): Promise<CheckOutResult | undefined> {
    if (!node) return undefined;
    const { base, oracle } = node.candidate;
    try {
      return await this.checkout.runGitPairInImage(node.repoDir, base, oracle, () => this.build(node), where?.targetDir);
    } catch (err) {
      showError(vscode.l10n.t('Build Environment and Check Out failed'), err);
      if (where) throw err;
      return undefined;
    }
  }

  /** The oracle's environment image; a failed build or collection is a UserError with its reason. */
  private build(node: CandidateNode): Promise<string> {
    const { oracle } = node.candidate;
    const settings = curateSettings();
    const conn = connectDocker({ socketPath: runtimeSettings().docker.socketPath || undefined });
    return withCancellableProgress(vscode.l10n.t('SWE-CI: building the environment of {0}', oracle.slice(0, 7)), async ({ report, signal }) => {
      await pingEngine(conn);
      // The Dockerfile, requirements and logs are kept for the user to read, as `sweci curate` keeps them in <out>/env.
      const envDir = path.join(this.context.globalStorageUri.fsPath, 'curate-env');
      const result = await buildCandidateEnvironment(conn, node.repoDir, oracle, {
        ...settings,
        envDir,
        signal,
        onProgress: (message) => {
          log().info(message);
          report(message);
        },
      });
      const where = path.join(envDir, result.key);
      if (result.outcome === 'failed') {
        throw new UserError(`${result.reason} (Dockerfile and logs in ${where})`);
      }
      const repaired = result.repairs.map((r) => `${r.module} → ${r.distribution} (${r.via})`).join('; ');
      log().info(`Environment of ${oracle} built: ${result.image}${repaired ? `, repaired: ${repaired}` : ''} (Dockerfile in ${where})`);
      return result.image;
    });
  }
}
