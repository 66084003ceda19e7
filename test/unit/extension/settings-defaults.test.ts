// Each default is stated once, in the parser that reads the setting; package.json shows the
// same value in the Settings UI. Every parser is run twice: with nothing set (its own defaults)
// and with every key set to package.json's default. Any difference is a default stated two ways.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readAgentSettings } from '../../../src/core/agents/agent-settings';
import { readModelAccess } from '../../../src/core/agents/model-access';
import { readSequenceSettings } from '../../../src/core/sequence/sequence-settings';
import { readIntegritySettings } from '../../../src/core/loop/integrity-settings';
import { readLoopSettings } from '../../../src/core/loop/loop-settings';
import { readPytestSettings } from '../../../src/core/pytest/pytest-settings';
import { readRuntimeSettings } from '../../../src/core/runtime/runtime-settings';
import { readTelemetrySettings } from '../../../src/core/telemetry/telemetry-settings';
import { readHubSettings } from '../../../src/core/download/hub-settings';
import { readCurateSettings } from '../../../src/core/curate/curate-settings';
import type { SettingReader } from '../../../src/core/util/setting-reader';
import { contributedSettings } from './contributed-settings';

const PARSERS: Record<string, (read: SettingReader) => unknown> = {
  runtime: readRuntimeSettings,
  pytest: readPytestSettings,
  loop: readLoopSettings,
  integrity: readIntegritySettings,
  sequence: readSequenceSettings,
  model: readModelAccess,
  // With no OTEL_* variables: the settings alone.
  telemetry: (read) => readTelemetrySettings(read, {}),
  // With no HF_ENDPOINT: the defaults alone.
  dataset: (read) => readHubSettings(read, {}),
  curate: readCurateSettings,
  architect: (read) => readAgentSettings('architect', read),
  programmer: (read) => readAgentSettings('programmer', read),
  // A custom agent's own keys are read only when the role is custom (with a command).
  'architect (custom)': (read) => readAgentSettings('architect', custom('architect', read)),
  'programmer (custom)': (read) => readAgentSettings('programmer', custom('programmer', read)),
};

function custom(role: string, read: SettingReader): SettingReader {
  return (key) => (key === `${role}.agent` ? 'custom' : key === `${role}.customCommand` ? 'my-agent {promptFile}' : read(key));
}

test("package.json's defaults are the parsers' own: every setting read with nothing set equals it read with package.json's default", () => {
  const defaults = new Map<string, unknown>();
  for (const [key, schema] of contributedSettings()) if ('default' in schema) defaults.set(key.replace(/^sweci\./, ''), schema.default);
  const asked = new Set<string>();
  for (const [name, parse] of Object.entries(PARSERS)) {
    const own = parse(() => undefined);
    const fromManifest = parse((key) => {
      asked.add(key);
      return defaults.get(key);
    });
    assert.deepEqual(fromManifest, own, `${name}: a default in package.json differs from the parser's`);
  }
  // The parsers above read most of the contributed keys: a new parser must be added to PARSERS.
  const unread = [...defaults.keys()].filter((k) => !asked.has(k));
  // (The oracle folder is the extension's own; a custom command has no default to compare.)
  assert.deepEqual(
    unread,
    ['architect.customCommand', 'programmer.customCommand', 'oracleDirectory'],
    'every contributed setting with a default is read by a parser checked here',
  );
});
