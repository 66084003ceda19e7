// The requirement.xml language server (bundled alone as dist/server.js): diagnostics from the
// core's one validation, hover on test node ids, completion, and links from locations to code.
// Every handler is guarded: a document an agent wrote must never take the server down.
import * as l10n from '@vscode/l10n';
import * as path from 'node:path';
import {
  CodeActionKind,
  createConnection,
  type InitializeResult,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import type { RequirementContext } from '../core/requirement/requirement-context';
import { validateRequirement, type RequirementValidation } from '../core/requirement/validate-requirement';
import { completionsAt } from './completion';
import { documentLinks } from './document-links';
import { hoverAt } from './hover';
import { quickFixes } from './quick-fixes';
import { TaskContexts, taskRootOf } from './task-contexts';
import { toLspDiagnostic } from './to-lsp';
import { taskFolder } from '../core/workspace/task-folder';
import * as z from 'zod/mini';
import { l10nBundleSchema } from '../shared/l10n-bundle';

const connection: Connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const contexts = new TaskContexts(
  (root) => {
    for (const doc of documents.all()) if (taskRootOf(doc.uri) === root) schedule(doc.uri);
  },
  (message) => connection.console.warn(message),
);

// One validation per document version, shared by diagnostics and links.
const analyses = new Map<string, { version: number; context?: RequirementContext; validation: RequirementValidation }>();

async function contextOf(uri: string): Promise<RequirementContext | undefined> {
  const root = taskRootOf(uri);
  if (!root) return undefined;
  try {
    return await contexts.get(root);
  } catch {
    return undefined; // already reported by TaskContexts
  }
}

async function analyse(doc: TextDocument): Promise<RequirementValidation> {
  const context = await contextOf(doc.uri);
  const cached = analyses.get(doc.uri);
  if (cached && cached.version === doc.version && cached.context === context) return cached.validation;
  const validation = validateRequirement(doc.getText(), context);
  analyses.set(doc.uri, { version: doc.version, context, validation });
  return validation;
}

// Changes arrive faster than they can be validated while someone types: validate the newest.
const pending = new Set<string>();
let flushing = false;
function schedule(uri: string): void {
  pending.add(uri);
  if (!flushing) {
    flushing = true;
    setImmediate(() => void flush());
  }
}

async function flush(): Promise<void> {
  try {
    while (pending.size > 0) {
      const [uri] = pending;
      pending.delete(uri);
      const doc = documents.get(uri);
      if (!doc) continue;
      try {
        const { errors, warnings } = await analyse(doc);
        const now = documents.get(uri);
        if (now?.version !== doc.version) continue; // a newer version is pending
        await connection.sendDiagnostics({ uri, version: doc.version, diagnostics: [...errors, ...warnings].map((d) => toLspDiagnostic(d, doc)) });
      } catch (err) {
        connection.console.error(`validating ${uri}: ${describe(err)}`);
      }
    }
  } finally {
    flushing = false;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

// The extension hands over its l10n bundle for VS Code's display language (none: English).
const initOptionsSchema = z.object({ l10nBundle: z.optional(l10nBundleSchema) });

connection.onInitialize((params) => {
  const options = initOptionsSchema.safeParse(params.initializationOptions ?? {});
  if (options.success && options.data.l10nBundle) l10n.config({ contents: options.data.l10nBundle });
  return initializeResult;
});

const initializeResult: InitializeResult = {
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    hoverProvider: true,
    completionProvider: { triggerCharacters: ['<', '/', ':'] },
    documentLinkProvider: { resolveProvider: false },
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
  },
  serverInfo: { name: 'sweci-requirement' },
};

documents.onDidChangeContent((e) => schedule(e.document.uri));
documents.onDidClose((e) => {
  analyses.delete(e.document.uri);
  pending.delete(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

// File events may not come: the open documents' tasks are also compared with their inputs.
setInterval(() => {
  const roots = new Set(documents.all().flatMap((d) => taskRootOf(d.uri) ?? []));
  if (roots.size > 0) void contexts.recheck(roots).catch((err: unknown) => connection.console.warn(`rechecking tasks: ${describe(err)}`));
}, 3000).unref();

connection.onDidChangeWatchedFiles((e) => {
  contexts.invalidate(e.changes.filter((c) => c.uri.startsWith('file:')).map((c) => path.normalize(fileURLToPath(c.uri))));
});

connection.onHover(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return null;
  try {
    return hoverAt(doc, doc.offsetAt(params.position), await contextOf(doc.uri));
  } catch (err) {
    connection.console.error(`hover: ${describe(err)}`);
    return null;
  }
});

connection.onCompletion(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return [];
  try {
    return completionsAt(doc, doc.offsetAt(params.position), await contextOf(doc.uri));
  } catch (err) {
    connection.console.error(`completion: ${describe(err)}`);
    return [];
  }
});

connection.onDocumentLinks(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  const root = doc && taskRootOf(doc.uri);
  if (!doc || !root) return [];
  try {
    const context = await contextOf(doc.uri);
    if (!context) return [];
    return await documentLinks(doc, (await analyse(doc)).result, context, taskFolder(root).codeDir);
  } catch (err) {
    connection.console.error(`links: ${describe(err)}`);
    return [];
  }
});

connection.onCodeAction((params) => {
  try {
    return quickFixes(params.textDocument.uri, params.context.diagnostics);
  } catch (err) {
    connection.console.error(`code actions: ${describe(err)}`);
    return [];
  }
});

documents.listen(connection);
connection.listen();
