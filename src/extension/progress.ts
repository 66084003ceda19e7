// Long steps run under a cancellable progress notification; cancellation becomes an
// AbortSignal that the core threads down to the processes it starts.
import * as vscode from 'vscode';

// Aborted when the extension deactivates, so no pytest or agent outlives its window.
const shutdown = new AbortController();
export function abortAllSteps(): void {
  shutdown.abort();
}

export interface StepContext {
  // A property, not a method: steps destructure it ({ report, signal }).
  report: (message: string) => void;
  signal: AbortSignal;
}

export function withCancellableProgress<T>(title: string, step: (ctx: StepContext) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const signal = AbortSignal.any([abort.signal, shutdown.signal]);
        return await step({ report: (message) => progress.report({ message }), signal });
      } finally {
        sub.dispose();
      }
    }),
  );
}
