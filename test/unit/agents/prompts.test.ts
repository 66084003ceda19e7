// Prompt rendering with this run's real paths, and user templates.
import assert from 'node:assert/strict';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { containerPromptPaths, promptPathsFor, renderPrompt } from '../../../src/core/agents/prompts';
import { readAgentSettings } from '../../../src/core/agents/agent-settings';
import { renderDefaultPrompt } from '../../../src/core/loop/default-prompt';
import { UserError } from '../../../src/core/util/errors';

const root = path.join(os.tmpdir(), 'my tasks', 'demo__task-1');
const paths = promptPathsFor(taskFolder(root));

describe('renderPrompt', () => {
  test('the architect prompt names the real paths and the protocol', () => {
    const p = renderPrompt('architect', paths);
    assert.ok(!/\{\{|\}\}/.test(p), 'no placeholder left');
    assert.ok(!p.includes('`/app/'), 'no container path');
    for (const f of [paths.appDir, paths.codeDir, paths.testsDir, paths.nonPassedDir, paths.summaryFile, paths.requirementFile]) {
      assert.ok(p.includes(`\`${f}\``), `names ${f}`);
    }
    assert.equal(paths.testsDir, path.join(root, 'app', 'code', 'tests'));
    for (const word of ['location', 'description', 'contract', 'acceptance', '1 to 5', 'Summarise', 'Locate', 'Design']) assert.ok(p.includes(word), word);
    assert.match(p, /Do not run pytest/);
  });

  test('the programmer prompt names the requirement file and its limits', () => {
    const p = renderPrompt('programmer', paths);
    for (const f of [paths.codeDir, paths.testsDir, paths.requirementFile]) assert.ok(p.includes(`\`${f}\``), f);
    for (const word of ['Comprehend', 'Plan', 'Code', 'Do not edit', 'never anything in']) assert.ok(p.includes(word), word);
    assert.ok(!p.includes(paths.summaryFile), 'the programmer is not pointed at the test gap');
  });

  test('container paths for agents that run in Docker', () => {
    const p = renderPrompt('architect', containerPromptPaths());
    assert.ok(p.includes('`/app/non-passed/summary.jsonl`'));
    assert.ok(p.includes('`/app/requirement.xml`'));
  });

  test('a user template: known placeholders (spaces allowed), unknown ones are a user error naming them', () => {
    assert.equal(renderPrompt('programmer', paths, 'Edit {{codeDir}} per {{ requirementFile }}.'), `Edit ${paths.codeDir} per ${paths.requirementFile}.`);
    assert.equal(renderPrompt('architect', paths, 'No placeholders; {single} braces stay.'), 'No placeholders; {single} braces stay.');
    assert.throws(
      () => renderPrompt('architect', paths, 'Read {{summaryFile}} and {{sumaryFile}} and {{cwd}}'),
      (e: unknown) => e instanceof UserError && /\{\{sumaryFile\}\}, \{\{cwd\}\}/.test(e.message) && /architect/.test(e.message),
    );
    // The built-in templates use only known placeholders, and every one is filled.
    for (const role of ['architect', 'programmer'] as const) assert.doesNotMatch(renderPrompt(role, paths), /\{\{/, role);
    // The placeholders the error names are exactly the paths a prompt is given.
    const refusal = ((): unknown => {
      try {
        return renderPrompt('architect', paths, '{{nope}}');
      } catch (e) {
        return e;
      }
    })();
    assert.ok(refusal instanceof UserError);
    const known = [...refusal.message.split('Known placeholders:')[1].matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
    assert.deepEqual(known.sort(), Object.keys(paths).sort());
  });

  test("template files: the loop's prompt uses the role's file when set, a missing one is a user error", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-prompt-'));
    try {
      const file = path.join(dir, 'mine.md');
      await fs.writeFile(file, 'Fix {{codeDir}}');
      const programmer = (template?: string) => {
        const values: Record<string, unknown> = { 'programmer.agent': 'custom', 'programmer.customCommand': 'true', 'programmer.promptTemplateFile': template };
        return readAgentSettings('programmer', (key) => values[key]);
      };
      assert.equal(await renderDefaultPrompt('programmer', taskFolder(root), programmer(file)), `Fix ${paths.codeDir}`);
      assert.equal(await renderDefaultPrompt('programmer', taskFolder(root), programmer()), renderPrompt('programmer', paths));
      await assert.rejects(
        renderDefaultPrompt('programmer', taskFolder(root), programmer(path.join(dir, 'nope.md'))),
        (e: unknown) => e instanceof UserError && /nope\.md/.test(e.message),
      );
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
