// Adding an agent preset touches its own folder (presets/<id>/), the list in presets/index.ts and
// package.json's agent choices, and nothing else: every table the harness keeps about presets is
// derived from PRESETS. This test proves it on a copy of src/: it adds a toy preset that way and
// only that way, compiles the copy with the project's own strict settings (a table keyed by
// AgentPresetId anywhere in src/ that needed an entry would fail here), and runs the compiled
// copy: the toy's usage, error and events are read through the same entry points as the real
// presets', by its id and in 'auto', and its key is known.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { PRESETS } from '../../../src/core/agents/presets';
import { repoRoot } from '../helpers/repo-root';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-new-preset-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

const TOY_PRESET = `// A toy CLI: prints "toy-usage: in=N out=M", "toy-error: …" and {"toy": …} events.
import type { AgentUsage } from '../../reading/agent-usage';
import type { EventReader } from '../../reading/event-turns';
import { Turns } from '../../reading/event-turns';
import type { AgentPreset } from '../agent-preset';

const toyEvents: EventReader = {
  recognises: (events) => events.some((e) => typeof e.toy === 'string'),
  read: (events) => {
    const turns = new Turns();
    for (const e of events) if (typeof e.toy === 'string') turns.answer({ kind: 'text', role: 'assistant', text: e.toy });
    return { calls: turns.finish(), tools: [], notes: [] };
  },
};

function toyUsage(stdout: string): AgentUsage | undefined {
  const m = /toy-usage: in=(\\d+) out=(\\d+)/.exec(stdout);
  return m ? { inputTokens: Number(m[1]), outputTokens: Number(m[2]) } : undefined;
}

export const toy: AgentPreset<'toy'> = {
  id: 'toy',
  label: 'Toy CLI',
  executable: 'toy',
  install: 'npm install -g toy-cli',
  protocol: 'chat-completions',
  apiKeys: ['TOY_API_KEY'],
  loginFiles: ['.toy/auth.json'],
  unconfinedPermissions: 'file edits only (not confined)',
  command: (ctx) => ({ args: ['--json', ...(ctx.extraArgs ?? [])], stdin: ctx.prompt, promptVia: 'stdin' }),
  setup: () => ({ env: {}, files: [] }),
  readUsage: (stdout) => toyUsage(stdout),
  readError: (stdout) => /toy-error: (.*)/.exec(stdout)?.[1],
  events: toyEvents,
  auto: { rank: 1, error: true },
};
`;

/** What the compiled copy is asked, through the entry points the harness uses. */
const PROBE = `
const { AGENT_PRESETS, PRESET_INFO, presetById } = require('./src/core/agents/presets');
const { parseUsage, reportedError } = require('./src/core/agents/agent-output');
const { hasEventReader, readCliEvents } = require('./src/core/transcript/cli-events-transcript');
const { KNOWN_API_KEYS } = require('./src/core/agents/api-key-names');
const { keysForTry } = require('./src/core/agents/key-rule');
const { AGENT_CHOICES } = require('./src/core/agents/agent-settings');
const { PRESET_PROTOCOL } = require('./src/core/agents/endpoint/endpoint');
const out = 'working\\ntoy-usage: in=120 out=7\\ntoy-error: quota gone\\n';
const log = '# SWE-CI agent run\\n# agent:   Toy CLI\\n\\n' + JSON.stringify({ toy: 'hello' }) + '\\n\\n# ended:   exit code 0 after 1.0 s\\n';
const meta = (agent) => ({ role: 'programmer', iteration: 1, try: 1, agent });
console.log(JSON.stringify({
  presets: AGENT_PRESETS,
  choices: AGENT_CHOICES,
  info: PRESET_INFO.toy,
  protocol: PRESET_PROTOCOL.toy,
  usage: parseUsage('toy', out, ''),
  autoUsage: parseUsage('auto', out, ''),
  error: reportedError('toy', out, ''),
  autoError: reportedError('auto', out, ''),
  hasEvents: hasEventReader('toy'),
  ownEvents: readCliEvents(log, meta('toy'))?.calls.map((c) => c.output),
  autoEvents: readCliEvents(log, meta('custom'))?.calls.length,
  keys: keysForTry({ TOY_API_KEY: 'k1', ANTHROPIC_API_KEY: 'k2' }, { kind: 'preset', preset: 'toy', role: 'programmer' }, 'open'),
  known: KNOWN_API_KEYS.find((k) => k.name === 'TOY_API_KEY'),
  label: presetById('toy').label,
}));
`;

/** package.json with 'toy' after the last preset in every enum that lists the presets. */
function manifestWithToy(text: string): string {
  const manifest = JSON.parse(text) as {
    contributes: { configuration: Array<{ properties: Record<string, Record<string, unknown>> }> | { properties: Record<string, Record<string, unknown>> } };
  };
  const ids = PRESETS.map((p) => p.id as string);
  const sections = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
  let edited = 0;
  for (const section of sections) {
    for (const schema of Object.values(section.properties)) {
      const values = schema.enum as unknown[] | undefined;
      if (!values || !ids.every((id) => values.includes(id))) continue;
      const at = Math.max(...ids.map((id) => values.indexOf(id))) + 1;
      values.splice(at, 0, 'toy');
      const descriptions = schema.enumDescriptions as string[] | undefined;
      descriptions?.splice(at, 0, 'Toy CLI (`toy`): a preset added by a test');
      edited++;
    }
  }
  assert.ok(edited >= 2, 'both roles list the presets in package.json');
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

test('a preset added as its own folder, one line in the index and package.json is taken up everywhere', () => {
  fs.cpSync(path.join(repoRoot, 'src'), path.join(work, 'src'), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(work, 'node_modules'));
  fs.writeFileSync(path.join(work, 'package.json'), manifestWithToy(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')));
  const tsconfig = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  fs.writeFileSync(
    path.join(work, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...tsconfig.compilerOptions, outDir: 'out', sourceMap: false }, include: ['src/**/*.ts'] }),
  );

  // The whole diff: the toy's folder and the index's two lines.
  fs.mkdirSync(path.join(work, 'src/core/agents/presets/toy'));
  fs.writeFileSync(path.join(work, 'src/core/agents/presets/toy/preset.ts'), TOY_PRESET);
  const indexFile = path.join(work, 'src/core/agents/presets/index.ts');
  const index = fs.readFileSync(indexFile, 'utf8');
  const list = /export const PRESETS = \[([^\]]*)\] as const;/;
  assert.match(index, list, 'presets/index.ts declares PRESETS as one list');
  fs.writeFileSync(
    indexFile,
    `import { toy } from './toy/preset';\n${index.replace(list, (_all, items: string) => `export const PRESETS = [${items}, toy] as const;`)}`,
  );

  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', work], { cwd: work, encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: string };
    assert.fail(
      `src/ with the toy preset does not compile; something besides the preset's folder, the index and package.json needs it:\n${e.stdout ?? String(err)}`,
    );
  }
  fs.writeFileSync(path.join(work, 'out/probe.js'), PROBE);
  const seen = JSON.parse(execFileSync(process.execPath, [path.join(work, 'out/probe.js')], { cwd: path.join(work, 'out'), encoding: 'utf8' })) as Record<
    string,
    unknown
  >;

  assert.deepEqual(seen.presets, [...PRESETS.map((p) => p.id), 'toy']);
  assert.deepEqual(seen.choices, [...PRESETS.map((p) => p.id), 'toy', 'custom', 'human'], 'the settings parser accepts it');
  assert.deepEqual(seen.info, { id: 'toy', label: 'Toy CLI', executable: 'toy', install: 'npm install -g toy-cli', usageFormat: 'toy' });
  assert.equal(seen.protocol, 'chat-completions');
  assert.deepEqual(seen.usage, { inputTokens: 120, outputTokens: 7 }, 'its usage, read by its id');
  assert.deepEqual(seen.autoUsage, { inputTokens: 120, outputTokens: 7 }, "its usage, read in 'auto' (rank 1: first)");
  assert.equal(seen.error, 'quota gone');
  assert.equal(seen.autoError, 'quota gone', "its error reader takes part in 'auto'");
  assert.equal(seen.hasEvents, true);
  assert.deepEqual(seen.ownEvents, [[{ kind: 'text', role: 'assistant', text: 'hello' }]], 'its events, read as a transcript');
  assert.equal(seen.autoEvents, 1, "its events, recognised in 'auto' for a custom agent's log");
  assert.deepEqual(seen.keys, { TOY_API_KEY: 'k1' }, 'a try that calls its model itself is given its key, and only it');
  assert.deepEqual(seen.known, { name: 'TOY_API_KEY', detail: 'Toy CLI' });
  assert.equal(seen.label, 'Toy CLI');
});
