// The runtime's line in the Task view and status bar: the core's English without a bundle,
// translated with one (a container's runtime and image are names and stay as they are).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as l10n from '@vscode/l10n';
import { describeEnvironment } from '../../../src/core/runtime/task-environment';
import type { EnvironmentRecord } from '../../../src/core/workspace/environment-record';
import { environmentText } from '../../../src/extension/environment/environment-text';

const base = { schema: 1 as const, python: 'python3', recordedAt: '2026-01-01T00:00:00Z' };
const records: EnvironmentRecord[] = [
  { ...base, runtime: 'local', isolation: 'sandbox' },
  { ...base, runtime: 'local', isolation: 'none' },
  { ...base, runtime: 'local' },
  { ...base, runtime: 'docker', image: 'sweci/x:1' },
  { ...base, runtime: 'podman', image: 'sweci/x:1' },
];

test('without a bundle each environment reads as the core describes it', () => {
  for (const r of records) assert.equal(environmentText(r), describeEnvironment(r));
});

test('with a bundle the local ones are translated and a container keeps its names', () => {
  l10n.config({ contents: { 'local · sandboxed': 'LOCAL SANDBOXED', 'local · not isolated': 'LOCAL OPEN', local: 'LOCAL' } });
  try {
    assert.deepEqual(records.map(environmentText), ['LOCAL SANDBOXED', 'LOCAL OPEN', 'LOCAL', 'docker · sweci/x:1', 'podman · sweci/x:1']);
  } finally {
    l10n.config({ contents: {} });
  }
});
