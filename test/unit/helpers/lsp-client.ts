// A real LSP client for the requirement.xml server: spawns dist/server.js over stdio and speaks
// JSON-RPC to it, as VS Code's language client does.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentLinkRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type DocumentLink,
  type FileEvent,
  type Hover,
  type InitializeResult,
  type Position,
  type ProtocolConnection,
  type Range,
} from 'vscode-languageserver-protocol';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { repoRoot } from './repo-root';

export const SERVER_BUNDLE = path.join(repoRoot, 'dist', 'server.js');

interface Published {
  version?: number;
  diagnostics: Diagnostic[];
}

export class LspClient {
  private readonly published = new Map<string, Published>();
  private readonly waiters: Array<{ uri: string; version: number; resolve: (p: Published) => void }> = [];
  private readonly versions = new Map<string, number>();
  readonly stderr: string[] = [];
  readonly logs: string[] = [];
  capabilities: InitializeResult['capabilities'] | undefined;

  private constructor(
    readonly proc: ChildProcess,
    private readonly conn: ProtocolConnection,
  ) {
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      const entry: Published = { version: p.version, diagnostics: p.diagnostics };
      this.published.set(p.uri, entry);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const w = this.waiters[i];
        if (w.uri === p.uri && (p.version ?? -1) >= w.version) {
          this.waiters.splice(i, 1);
          w.resolve(entry);
        }
      }
    });
    conn.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
    });
  }

  /** Starts the server; `initializationOptions` as the extension gives them (its l10n bundle). */
  static async start(initializationOptions?: unknown): Promise<LspClient> {
    const proc = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    const client = new LspClient(proc, conn);
    proc.stderr.on('data', (d: Buffer) => client.stderr.push(d.toString()));
    conn.listen();
    const init = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      workspaceFolders: null,
      ...(initializationOptions === undefined ? {} : { initializationOptions }),
    });
    client.capabilities = init.capabilities;
    await conn.sendNotification(InitializedNotification.type, {});
    return client;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Opens (or replaces the text of) a document and waits for its diagnostics. */
  async open(uri: string, text: string): Promise<Diagnostic[]> {
    const version = 1;
    this.versions.set(uri, version);
    const wait = this.diagnosticsFor(uri, version);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'xml', version, text } });
    return (await wait).diagnostics;
  }

  async change(uri: string, text: string): Promise<Diagnostic[]> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    const wait = this.diagnosticsFor(uri, version);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return (await wait).diagnostics;
  }

  /** The next diagnostics published for a version at least as new as the document's current one. */
  async nextDiagnostics(uri: string): Promise<Diagnostic[]> {
    return (await this.diagnosticsFor(uri, this.versions.get(uri) ?? 0, true)).diagnostics;
  }

  async close(uri: string): Promise<void> {
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  async filesChanged(changes: FileEvent[]): Promise<void> {
    await this.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const r: CompletionList | CompletionItem[] | null = await this.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    return Array.isArray(r) ? r : (r?.items ?? []);
  }

  async codeActions(uri: string, range: Range, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const r = await this.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics } });
    return (r ?? []).filter((a): a is CodeAction => 'kind' in a || 'edit' in a);
  }

  async links(uri: string): Promise<DocumentLink[]> {
    return (await this.conn.sendRequest(DocumentLinkRequest.type, { textDocument: { uri } })) ?? [];
  }

  async stop(): Promise<void> {
    if (this.alive) {
      const exited = new Promise((r) => this.proc.once('exit', r));
      await this.conn.sendRequest(ShutdownRequest.type).catch(() => undefined);
      await this.conn.sendNotification(ExitNotification.type).catch(() => undefined);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      if (this.alive) this.proc.kill('SIGKILL');
    }
    this.conn.dispose();
  }

  private diagnosticsFor(uri: string, version: number, fresh = false): Promise<Published> {
    const known = this.published.get(uri);
    if (!fresh && known && (known.version ?? -1) >= version) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version} within 10 s; server stderr: ${this.stderr.join('')}`)), 10_000);
      this.waiters.push({ uri, version, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  }
}

export function fileUri(file: string): string {
  return pathToFileURL(file).href;
}

/** 0-based LSP position of a character offset. */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = (before.match(/\r\n|\r|\n/g) ?? []).length;
  const lastBreak = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
  return { line, character: offset - (lastBreak + 1) };
}
