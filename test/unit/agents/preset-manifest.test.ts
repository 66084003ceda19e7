// package.json lists the agent presets by hand (each role's agent choices and their
// descriptions): they must be the presets the code defines (presets/index.ts), in its order, so a
// preset added on one side only fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_CHOICES } from '../../../src/core/agents/agent-settings';
import { PRESETS } from '../../../src/core/agents/presets';
import { contributedSettings } from '../extension/contributed-settings';

const NOT_PRESETS = ['custom', 'human'];

test("each role's agent choices in package.json are the presets, in order, then custom and human", () => {
  const settings = contributedSettings();
  const ids = PRESETS.map((p) => p.id);
  for (const role of ['architect', 'programmer']) {
    const schema = settings.get(`sweci.${role}.agent`);
    assert.ok(schema, `sweci.${role}.agent is contributed`);
    assert.deepEqual(schema.enum, [...ids, ...NOT_PRESETS], `sweci.${role}.agent's enum`);
    assert.deepEqual([...AGENT_CHOICES], schema.enum, 'the settings parser accepts the same choices');
    const descriptions = schema.enumDescriptions ?? [];
    assert.equal(descriptions.length, schema.enum.length, `sweci.${role}.agent: one description per choice`);
    PRESETS.forEach((p, i) => {
      assert.ok(
        descriptions[i].startsWith(`${p.label} (\`${p.executable}`),
        `sweci.${role}.agent: the description of "${p.id}" names ${p.label} and \`${p.executable}\`: ${descriptions[i]}`,
      );
    });
  }
});

test('every other enum in package.json that names a preset names them all', () => {
  // A list of usage formats or agents added later must not fall behind the presets either.
  const ids = new Set<string>(PRESETS.map((p) => p.id));
  for (const [key, schema] of contributedSettings()) {
    const values = (schema.enum ?? []).filter((v): v is string => typeof v === 'string');
    if (!values.some((v) => ids.has(v))) continue;
    for (const id of ids) assert.ok(values.includes(id), `${key} lists ${id}`);
  }
});

test('preset ids are distinct and each preset is complete', () => {
  const ids = PRESETS.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const p of PRESETS) {
    assert.match(p.id, /^[a-z][a-z0-9-]*$/, `${p.id}: an id fit for a setting's value`);
    for (const field of [p.label, p.executable, p.install, p.unconfinedPermissions]) assert.ok(field.trim().length > 0, `${p.id}: ${field}`);
    assert.match(p.unconfinedPermissions, /\(not confined\)$/, `${p.id}: its permissions sentence says it is not confined`);
    assert.ok(p.loginFiles.length > 0, `${p.id} names its login files`);
    for (const f of p.loginFiles) assert.ok(!f.startsWith('/') && !f.split('/').includes('..'), `${p.id}: ${f} stays in the home`);
  }
});
