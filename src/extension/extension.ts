// Entry point: activates every feature (activate/features.ts) and loads the open task. It
// returns nothing: the extension offers no API to other extensions.
import type * as vscode from 'vscode';
import { activateFeatures, releaseEnvironments, startFeatures } from './activate/features';
import { abortAllSteps } from './progress';
import { stopTracing } from '../core/telemetry/tracing';

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  await startFeatures(context, activateFeatures(context));
}

/** Stops running steps and removes the task's containers before the window goes. */
export async function deactivate(): Promise<void> {
  abortAllSteps();
  // The last spans leave (bounded: a dead collector must not hold the window) while containers go.
  await Promise.all([releaseEnvironments(), stopTracing()]);
}
