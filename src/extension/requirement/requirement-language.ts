// The client of the requirement.xml language server (dist/server.js). It starts when the first
// <task>/app/requirement.xml opens, so a window without one runs no server process.
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DidChangeWatchedFilesNotification,
  FileChangeType,
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import type { ChangeFeed, RequirementInputChange } from '../change-feed';
import { log } from '../log';
import { errorMessage } from '../../core/util/errors';
import { taskRelative } from '../../core/workspace/task-folder';

export const REQUIREMENT_PATTERN = `**/${taskRelative((t) => t.requirementFile)}`;

export interface RequirementLanguage extends vscode.Disposable {
  /** Resolves once the server answers (starting it if needed); for tests. */
  ready(): Promise<void>;
}

const CHANGE_TYPE: Record<RequirementInputChange['kind'], FileChangeType> = {
  created: FileChangeType.Created,
  changed: FileChangeType.Changed,
  deleted: FileChangeType.Deleted,
};

export function activateRequirementLanguage(context: vscode.ExtensionContext, feed: ChangeFeed): RequirementLanguage {
  let client: LanguageClient | undefined;
  let starting: Promise<void> | undefined;
  let inputs: vscode.Disposable | undefined;

  const start = (): Promise<void> => {
    starting ??= (async () => {
      const module = context.asAbsolutePath(path.join('dist', 'server.js'));
      const server: ServerOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
      };
      const options: LanguageClientOptions = {
        documentSelector: [{ scheme: 'file', pattern: REQUIREMENT_PATTERN }],
        outputChannel: log(),
        // The server's text (hover, completion, links, quick fixes) in VS Code's display language.
        ...(vscode.l10n.bundle ? { initializationOptions: { l10nBundle: vscode.l10n.bundle } } : {}),
      };
      const started = new LanguageClient('sweci.requirement', 'SWE-CI requirement.xml', server, options);
      client = started;
      await started.start();
      // The server's context: files appearing or going under app/code, and a new summary.jsonl.
      // The change feed watches them (no other module of the extension watches files).
      inputs = feed.onDidChangeRequirementInputs((changes) => {
        const params = { changes: changes.map((c) => ({ uri: c.uri.toString(), type: CHANGE_TYPE[c.kind] })) };
        started
          .sendNotification(DidChangeWatchedFilesNotification.type, params)
          .catch((err: unknown) => log().warn(`requirement.xml server: file changes not sent: ${errorMessage(err)}`));
      });
    })();
    return starting;
  };

  const matches = (doc: vscode.TextDocument) => doc.uri.scheme === 'file' && vscode.languages.match({ pattern: REQUIREMENT_PATTERN }, doc) > 0;
  const startFor = (doc: vscode.TextDocument) => {
    if (matches(doc)) start().catch((err: unknown) => log().error(`The requirement.xml language server did not start: ${errorMessage(err)}`));
  };
  const opened = vscode.workspace.onDidOpenTextDocument(startFor);
  vscode.workspace.textDocuments.forEach(startFor);

  return {
    ready: start,
    dispose: () => {
      opened.dispose();
      inputs?.dispose();
      void client?.stop();
    },
  };
}
