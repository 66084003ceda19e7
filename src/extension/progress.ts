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
  /** The notification's message; with `fraction` (0..1 of the whole step), its bar too. */
  report: (message: string, fraction?: number) => void;
  signal: AbortSignal;
}

export function withCancellableProgress<T>(title: string, step: (ctx: StepContext) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const signal = AbortSignal.any([abort.signal, shutdown.signal]);
        let shown = 0; // VS Code's bar takes increments, in percent
        const report = (message: string, fraction?: number) => {
          if (fraction === undefined) return progress.report({ message });
          const to = Math.min(100, Math.max(shown, fraction * 100));
          progress.report({ message, increment: to - shown });
          shown = to;
        };
        return await step({ report, signal });
      } finally {
        sub.dispose();
      }
    }),
  );
}
