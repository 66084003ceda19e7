// Shared by the integration suites: the extension's API, polling, and the scripted agents.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SweciApi } from '../extension/test-api';

/** The scripted test agents (real executables) in the source tree. */
export const agentsDir = path.resolve(__dirname, '../../../test/fixtures/agents');

export async function api(): Promise<SweciApi> {
  const ext = vscode.extensions.getExtension<SweciApi>('sweci.swe-ci-vscode');
  assert.ok(ext, 'the extension is installed in the host');
  const exports = ext.isActive ? ext.exports : await ext.activate();
  assert.ok(exports, "the test bundle's activate() returns the test API (test/integration/run.ts loads it)");
  return exports;
}

/** Polls `probe` until it returns something truthy. */
export async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Where the scripted agents keep what they read besides app/ (their copies of the answers). */
export const scriptedRoot = path.join(os.tmpdir(), 'sweci-it-scripted');

/**
 * Shows the scripted agents their own files in the sandbox, as a user shows a custom agent its
 * files: the scripts and their copies of the answers, nothing else of this machine.
 */
export async function showScriptedAgents(): Promise<void> {
  fs.mkdirSync(scriptedRoot, { recursive: true });
  await vscode.workspace.getConfiguration('sweci').update('sandboxReadablePaths', [agentsDir, scriptedRoot], vscode.ConfigurationTarget.Global);
}

/**
 * The scripted programmer's own copy of the upstream (its "knowledge" of the answers): agents
 * run sandboxed and cannot read the oracle, where the upstream lives.
 */
export function scriptedAnswers(oracleUpstream: string): string {
  fs.mkdirSync(scriptedRoot, { recursive: true });
  const dir = fs.mkdtempSync(path.join(scriptedRoot, 'answers-'));
  // Run by root, agents are the sandbox user (nobody): the answers must be readable by anyone.
  fs.chmodSync(dir, 0o755);
  const dest = path.join(dir, 'upstream.git');
  execFileSync('git', ['clone', '--bare', '--quiet', oracleUpstream, dest]);
  return dest;
}
