// Shared by the integration suites: the extension's API, polling, and the scripted agents.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SweciApi } from '../../src/extension/test-api';

/** The scripted test agents (real executables) in the source tree. */
export const agentsDir = path.resolve(__dirname, '../../../test/fixtures/agents');

export async function api(): Promise<SweciApi> {
  const ext = vscode.extensions.getExtension<SweciApi>('swe-ci.swe-ci-vscode');
  assert.ok(ext, 'the extension is installed in the host');
  return ext.isActive ? ext.exports : await ext.activate();
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

/**
 * The scripted programmer's own copy of the upstream (its "knowledge" of the answers): agents
 * run sandboxed and cannot read the oracle, where the upstream lives.
 */
export function scriptedAnswers(oracleUpstream: string): string {
  const dest = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-it-answers-')), 'upstream.git');
  execFileSync('git', ['clone', '--bare', '--quiet', oracleUpstream, dest]);
  return dest;
}
