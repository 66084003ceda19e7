// Which tries have a transcript: each with a calls record, and each log of a role whose agent
// prints an event stream (a preset CLI) — never a custom agent's plain log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rolesWithEventLogs, triesIn } from '../../../src/core/inspect/transcript-tries';

const NAMES = [
  'architect-try-1.log',
  'architect-try-2.calls.jsonl',
  'architect-try-2.log',
  'programmer-try-1.log',
  'programmer-try-10.calls.jsonl',
  'programmer-try-1.prompt.md',
  'report.json',
  'architect-try-0.log',
  'programmer-try-1.log.bak',
];

test('calls records always; logs only of roles whose agent prints events; each try once, Architect first, by try', () => {
  assert.deepEqual(triesIn(NAMES), [
    { role: 'architect', try: 2 },
    { role: 'programmer', try: 10 },
  ]);
  assert.deepEqual(triesIn(NAMES, ['architect', 'programmer']), [
    { role: 'architect', try: 1 },
    { role: 'architect', try: 2 },
    { role: 'programmer', try: 1 },
    { role: 'programmer', try: 10 },
  ]);
});

test('the roles with event logs are those played by a preset with an event reader', () => {
  const agent = (preset?: string) => ({ kind: 'agent' as const, ...(preset ? { preset } : {}) });
  const info = (architect: object, programmer: object) => ({ roles: { architect, programmer } }) as unknown as Parameters<typeof rolesWithEventLogs>[0];
  assert.deepEqual(rolesWithEventLogs(info(agent('claude-code'), agent())), ['architect']);
  assert.deepEqual(rolesWithEventLogs(info(agent('aider'), agent('codex'))), ['programmer']);
  assert.deepEqual(rolesWithEventLogs(info({ kind: 'human' }, agent('qwen'))), ['programmer']);
  assert.deepEqual(rolesWithEventLogs(undefined), []);
});
