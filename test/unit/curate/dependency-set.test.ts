// The dependency set of one commit: each file kind read, and the changes that must not count.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dependencySet, isDependencyFile } from '../../../src/core/curate/dependency-set';
import { setupPyArguments } from '../../../src/core/curate/python-literal';
import { normalizeRequirement, normalizeSpecifier } from '../../../src/core/curate/requirement-normalize';

const options = { lockfiles: false };

async function setOf(files: Record<string, string>, opts = options) {
  return dependencySet(Object.keys(files), (p) => Promise.resolve(files[p]), opts);
}

async function entriesOf(files: Record<string, string>, opts = options): Promise<string[]> {
  return (await setOf(files, opts)).entries;
}

describe('requirement normalization', () => {
  test('PEP 503 names, sorted extras, specifier clauses, markers', () => {
    assert.equal(normalizeRequirement("Foo_Bar.baz [B_x, a] >= 1.0 , <2 ; python_version<'3.9'"), 'foo-bar-baz[a,b-x]<2,>=1.0; python_version < "3.9"');
    assert.equal(normalizeRequirement('foo-bar-baz[A,b.x]>=1.0,<2;python_version < "3.9"'), 'foo-bar-baz[a,b-x]<2,>=1.0; python_version < "3.9"');
    assert.equal(normalizeRequirement('requests (>=2.0)'), 'requests>=2.0');
    assert.equal(
      normalizeRequirement('pkg @ https://example.com/pkg-1.0.tar.gz ; os_name == "nt"'),
      'pkg @ https://example.com/pkg-1.0.tar.gz; os_name == "nt"',
    );
    assert.equal(normalizeSpecifier(' == 1.0 '), '==1.0');
    assert.equal(normalizeRequirement("a;(python_version>='3.8' AND extra=='Test_X')"), 'a; (python_version >= "3.8" and extra == "test-x")');
    // A real change stays a change.
    assert.notEqual(normalizeRequirement('foo>=1.0'), normalizeRequirement('foo>=1.1'));
    assert.notEqual(normalizeRequirement('foo[a]'), normalizeRequirement('foo[b]'));
  });
});

describe('dependency set', () => {
  test('pyproject: project, requires-python, extras, dependency groups, build-system, Poetry; unrelated tables ignored', async () => {
    const pyproject = `
[build-system]
requires = ["setuptools>=61", "wheel"]

[project]
name = "demo"
requires-python = ">=3.9"
dependencies = ["Requests>=2", "click"]

[project.optional-dependencies]
Test = ["pytest>=7"]

[dependency-groups]
dev = ["ruff", {include-group = "Lint"}]

[tool.poetry.dependencies]
python = "^3.9"
numpy = { version = "^1.26", extras = ["x"] }

[tool.poetry.group.docs.dependencies]
sphinx = "*"

[tool.black]
line-length = 100
`;
    assert.deepEqual(await entriesOf({ 'pyproject.toml': pyproject }), [
      'build|setuptools>=61',
      'build|wheel',
      'extra:test|pytest>=7',
      'group:dev|include-group:lint',
      'group:dev|ruff',
      'poetry-group:docs|sphinx "*"',
      'poetry|numpy {"extras":["x"],"version":"^1.26"}',
      'poetry|python "^3.9"',
      'project|click',
      'project|python>=3.9',
      'project|requests>=2',
    ]);
    const cosmetic = pyproject
      .replace('dependencies = ["Requests>=2", "click"]', 'dependencies = [\n  # the CLI\n  "CLICK",\n  "requests >= 2",\n]')
      .replace('line-length = 100', 'line-length = 88')
      .replace('numpy = { version = "^1.26", extras = ["x"] }', 'numpy = {extras = ["x"], version = " ^1.26"}');
    assert.deepEqual(await entriesOf({ 'pyproject.toml': cosmetic }), await entriesOf({ 'pyproject.toml': pyproject }));
  });

  test('setup.cfg: install, setup and tests requirements, extras; comments and order do not count', async () => {
    const cfg = `[metadata]\nname = demo\n\n[options]\ninstall_requires =\n    six\n    attrs>=20  # pinned low\ntests_require = pytest\n\n[options.extras_require]\nYAML =\n    PyYAML\n`;
    assert.deepEqual(await entriesOf({ 'setup.cfg': cfg }), [
      'setup.cfg:extra:yaml|pyyaml',
      'setup.cfg:install_requires|attrs>=20',
      'setup.cfg:install_requires|six',
      'setup.cfg:tests_require|pytest',
    ]);
    const reordered = `[options.extras_require]\nyaml = pyyaml\n\n[options]\n; reordered\ninstall_requires =\n    attrs >= 20\n    Six\ntests_require = pytest\n[metadata]\nname = other\n`;
    assert.deepEqual(await entriesOf({ 'setup.cfg': reordered }), await entriesOf({ 'setup.cfg': cfg }));
  });

  test('setup.py: literal arguments are read; anything else counts the whole file', async () => {
    const literal = `from setuptools import setup\nsetup(\n    name="demo",\n    install_requires=["numpy>=1", 'scipy'],  # core\n    extras_require={"test": ("pytest",)},\n)\n`;
    assert.deepEqual(await entriesOf({ 'setup.py': literal }), [
      'setup.py:extra:test|pytest',
      'setup.py:install_requires|numpy>=1',
      'setup.py:install_requires|scipy',
    ]);
    assert.deepEqual(setupPyArguments('setup(install_requires=["a"] + extra)'), undefined);
    assert.deepEqual(setupPyArguments('setup(install_requires=reqs)'), undefined);
    assert.deepEqual(setupPyArguments('kw = {"install_requires": ["a"]}\nsetup(**kw)'), undefined);
    const dynamic = `reqs = open("r.txt").read().split()\nsetup(name="demo", install_requires=reqs)\n`;
    const [entry] = await entriesOf({ 'setup.py': dynamic });
    assert.match(entry, /^setup\.py\|content:[0-9a-f]{16}$/);
    // Whole content: a comment line or a blank line changes nothing, a code change does.
    assert.deepEqual(await entriesOf({ 'setup.py': `# header\n\n${dynamic}` }), [entry]);
    assert.notDeepEqual(await entriesOf({ 'setup.py': dynamic.replace('r.txt', 's.txt') }), [entry]);
  });

  test('requirement files: -r and -c are followed relative to the file, options and hashes do not count', async () => {
    const files = {
      'requirements.txt': '# app\n-r requirements/base.txt\nFlask>=2 \\\n    --hash=sha256:abc\n--index-url https://example.com/simple\n',
      'requirements/base.txt': '-c ../constraints.txt\nclick\n',
      'constraints.txt': 'click<9\n',
      'docs/requirements-unrelated.md': 'x',
    };
    const set = await setOf(files);
    assert.deepEqual(set.entries, [
      'requirements:constraints.txt|click<9',
      'requirements:requirements.txt|flask>=2',
      'requirements:requirements.txt|include:requirements/base.txt',
      'requirements:requirements/base.txt|click',
      'requirements:requirements/base.txt|constraint:constraints.txt',
    ]);
    // The include was read, so a change to it is a change of the set.
    assert.ok(set.consulted.includes('constraints.txt'));
    assert.deepEqual(
      await entriesOf({ ...files, 'requirements.txt': files['requirements.txt'].replace('--index-url https://example.com/simple', '') }),
      set.entries,
    );
    assert.ok(isDependencyFile('test-requirements.txt', options));
    assert.ok(isDependencyFile('requirements/dev.in', options));
    assert.ok(!isDependencyFile('docs/requirements.txt', options));
  });

  test('a missing include and an include outside the repository are entries, not errors', async () => {
    assert.deepEqual(await entriesOf({ 'requirements.txt': '-r missing.txt\n-r ../../etc/passwd\n' }), [
      'requirements:missing.txt|missing',
      'requirements:requirements.txt|include-outside:../../etc/passwd',
      'requirements:requirements.txt|include:missing.txt',
    ]);
  });

  test('lockfiles count only with --lockfiles', async () => {
    const files = { 'poetry.lock': '[[package]]\nname = "a"\n', 'pyproject.toml': '[project]\ndependencies = ["a"]\n' };
    assert.deepEqual(await entriesOf(files), ['project|a']);
    const withLocks = await entriesOf(files, { lockfiles: true });
    assert.equal(withLocks.length, 2);
    assert.match(withLocks[0], /^lock:poetry\.lock\|[0-9a-f]{16}$/);
  });

  test('a pyproject that is not TOML: a problem named, its content counted', async () => {
    const set = await setOf({ 'pyproject.toml': '[project\ndependencies = [' });
    assert.equal(set.problems.length, 1);
    assert.match(set.problems[0], /^pyproject\.toml: not valid TOML/);
    assert.match(set.entries[0], /^pyproject\|unreadable:/);
  });
});
