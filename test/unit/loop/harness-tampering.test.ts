// Which changed files findHarnessTampering flags: conftest.py and start-up files whole, pytest's
// own configuration files by their pytest section only; tests/ never (it is restored).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findHarnessTampering } from '../../../src/core/loop/harness-tampering';

/** Whether changing `rel` from `before` (at the base) to `after` is flagged. */
async function flagged(rel: string, before = 'a\n', after = 'b\n'): Promise<boolean> {
  const source = { changedBetween: () => Promise.resolve([rel]), fileAt: (commit: string) => Promise.resolve(commit === 'base' ? before : after) };
  const found = await findHarnessTampering(source, 'base', 'to');
  assert.ok(found.length === 0 || (found.length === 1 && found[0] === rel), found.join(', '));
  return found.length === 1;
}

test('conftest.py, start-up files and .pth files count whole, wherever they are outside tests/', async () => {
  assert.equal(await flagged('conftest.py'), true);
  assert.equal(await flagged('src/pkg/conftest.py'), true);
  assert.equal(await flagged('tests/conftest.py'), false, 'tests/ is restored, not flagged here');
  assert.equal(await flagged('src/evil.pth'), true);
  assert.equal(await flagged('sitecustomize.py'), true);
  assert.equal(await flagged('pytest.ini'), true, 'pytest.ini is all pytest configuration');
  assert.equal(await flagged('src/pkg/mod.py'), false);
});

test("config sections: only a change to pytest's own section counts, in a top-level file", async () => {
  const before = '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n\n[tool.black]\nline-length = 88\n';
  const sameSection = before.replace('line-length = 88', 'line-length = 100').replace('name = "x"', 'name = "y"');
  const changed = before.replace('addopts = "-q"', 'addopts = "-q -p evil"');
  assert.equal(await flagged('pyproject.toml', before, sameSection), false);
  assert.equal(await flagged('pyproject.toml', before, changed), true);
  assert.equal(await flagged('sub/pyproject.toml', before, changed), false, 'only the top-level file configures pytest');
  assert.equal(await flagged('setup.cfg', '[metadata]\nname = x\n', '[metadata]\nname = y\n'), false, 'no pytest section on either side');
  assert.equal(await flagged('setup.cfg', '[metadata]\nname = x\n', '[metadata]\nname = x\n[tool:pytest]\naddopts = -x\n'), true);
  const cfg = '[tool:pytest]\naddopts = -x\n[flake8]\nmax = 1\n';
  assert.equal(await flagged('setup.cfg', cfg, cfg.replace('max = 1', 'max = 2')), false, 'the section ends at the next header');
  assert.equal(await flagged('setup.cfg', cfg, cfg.replace('addopts = -x', 'addopts = -p evil')), true);
  const tox = '[tox]\nenvlist = py\n[pytest]\nmarkers = a\n';
  assert.equal(await flagged('tox.ini', tox, tox.replace('envlist = py', 'envlist = py3')), false);
  assert.equal(await flagged('tox.ini', tox, tox.replace('markers = a', 'markers = b')), true);
});
