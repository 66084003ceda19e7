// A real VS Code (code-server) with this extension installed, for a person to use
// in their browser: prints the URL and stays in the foreground until Ctrl-C.
//
//   await startCodeServerForUser({ folder: '/path/to/task', port: 8080 });

import * as path from 'node:path';
import { CODE_SERVER_VERSION, linkExtension, repoRoot, startCodeServer } from './code-server';

export interface UserServerOptions {
  /** Folder to open. */
  folder: string;
  /** Port on `host`; default: a free port. */
  port?: number;
  /** Address to bind; default 127.0.0.1 (code-server runs with --auth none). */
  host?: string;
  /** Extension folder; default: the repository root (needs `npm run build`). */
  extensionPath?: string;
  /** Keep user data (settings, UI state) here instead of a temp folder. */
  userDataDir?: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server / the extension host. */
  env?: NodeJS.ProcessEnv;
  /** Called with the workbench URL once the server answers (default: print it). */
  onReady?: (url: string) => void;
}

/**
 * Starts code-server with the extension installed and `folder` to open, prints the
 * URL and resolves only after Ctrl-C / SIGTERM (the server is then stopped) — or
 * rejects if code-server dies on its own.
 */
export async function startCodeServerForUser(opts: UserServerOptions): Promise<void> {
  const folder = path.resolve(opts.folder);
  const server = await startCodeServer({
    port: opts.port,
    host: opts.host,
    userDataDir: opts.userDataDir,
    settings: opts.settings,
    env: opts.env,
    // A person needs the progress, Cancel and error toasts the smoke-test driver would hide.
    smokeTestDriver: false,
  });
  try {
    linkExtension(server.extensionsDir, opts.extensionPath ?? repoRoot());
    const url = server.workbenchUrl({ folder });
    if (opts.onReady) opts.onReady(url);
    else {
      console.log(`\nVS Code (code-server ${CODE_SERVER_VERSION}) with SWE-CI is running. Open in your browser:\n\n  ${url}\n`);
      console.log('Press Ctrl-C to stop.');
    }

    let signalled = false;
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    let onSignal = () => undefined as void;
    const outcome = await new Promise<'signal' | 'exit'>((resolve) => {
      onSignal = () => {
        signalled = true;
        resolve('signal');
      };
      for (const sig of signals) process.on(sig, onSignal);
      void server.exited.then(() => resolve(signalled ? 'signal' : 'exit'));
    });
    for (const sig of signals) process.off(sig, onSignal);
    if (outcome === 'exit') {
      throw new Error(`code-server stopped unexpectedly:\n${server.output().slice(-30).join('\n')}`);
    }
    console.log('\nStopping code-server…');
  } finally {
    await server.stop();
  }
}
