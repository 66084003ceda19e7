// The environment stage's rules without Docker: what the plan installs, which Python, which
// module is missing and who provides it (wheels built by code).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { dependencySet } from '../../../src/core/curate/dependency-set';
import { environmentPlan } from '../../../src/core/curate/env-plan';
import { findProvider, missingModules } from '../../../src/core/curate/module-providers';
import { writeWheel } from './wheel-fixture';

async function planOf(files: Record<string, string>) {
  const set = await dependencySet(Object.keys(files), (p) => Promise.resolve(files[p]), { lockfiles: false });
  return environmentPlan(set);
}

describe('environment plan', () => {
  test('runtime dependencies, test extras and groups, requirement files; not docs, not the build system', async () => {
    const plan = await planOf({
      'pyproject.toml': [
        '[build-system]\nrequires = ["setuptools>=61"]',
        '[project]\nname = "p"\nrequires-python = ">=3.9,<3.12"\ndependencies = ["Requests >= 2"]',
        '[project.optional-dependencies]\ntest = ["pytest-mock"]\ndocs = ["sphinx"]',
        '[dependency-groups]\ndev = [{include-group = "lint"}, "hypothesis"]\nlint = ["ruff"]',
      ].join('\n'),
      'requirements.txt': 'attrs==23.1\n-r requirements-docs.txt\n',
      'requirements-docs.txt': 'furo\n',
    });
    assert.deepEqual(plan.requirements, ['attrs==23.1', 'hypothesis', 'pytest-mock', 'pytest>=7', 'requests>=2', 'ruff']);
    assert.equal(plan.python, '3.11');
    assert.deepEqual(plan.notes, []);
  });

  test('setup.cfg and Poetry; a setup.py that is not literal is noted', async () => {
    const plan = await planOf({
      'setup.cfg': '[options]\ninstall_requires =\n    click>=8\ntests_require = pytest-cov\n[options.extras_require]\ntesting = freezegun\nyaml = pyyaml\n',
      'pyproject.toml':
        '[tool.poetry.dependencies]\npython = "^3.8"\nnumpy = "^1.24"\nrich = {version = "~13.3", optional = false}\nextra = {version = "1", optional = true}\n',
      'setup.py': 'from setuptools import setup\nsetup(install_requires=get_requirements())\n',
    });
    assert.deepEqual(plan.requirements, ['click>=8', 'freezegun', 'numpy<2,>=1.24', 'pytest-cov', 'pytest>=7', 'rich<13.4,>=13.3']);
    assert.equal(plan.python, '3.13');
    assert.match(plan.notes.join('\n'), /setup\.py's arguments are not literals/);
  });

  test('requires-python picks the newest Python it allows; Poetry constraints become PEP 440', async () => {
    const pythonOf = async (spec: string) => (await planOf({ 'pyproject.toml': `[project]\nname = "p"\nrequires-python = "${spec}"\n` })).python;
    assert.equal(await pythonOf('>=3.8'), '3.13');
    assert.equal(await pythonOf('<3.11,>=3.7'), '3.10');
    assert.equal(await pythonOf('~=3.9'), '3.13');
    assert.equal(await pythonOf('~=3.9.2'), '3.9');
    assert.equal(await pythonOf('==3.10.*'), '3.10');
    assert.equal(await pythonOf('>=3.8.1,<3.9'), '3.8');
    assert.equal(await pythonOf('<3'), '3.12'); // nothing known fits: the default
    assert.equal((await planOf({ 'pyproject.toml': '[project]\nname = "p"\n' })).python, undefined);
    const poetry = await planOf({
      'pyproject.toml':
        '[tool.poetry.dependencies]\npython = ">=3.9,<3.10"\nzero = "^0.3.1"\nspan = ">= 1.0, <2"\nfrom-git = {git = "https://example.com/x.git"}\n',
    });
    assert.equal(poetry.python, '3.9');
    assert.deepEqual(poetry.requirements, ['pytest>=7', 'span<2,>=1.0', 'zero<0.4,>=0.3.1']);
    assert.match(poetry.notes.join('\n'), /from-git .* is not a constraint this plan converts/);
  });
});

describe('module providers', () => {
  let wheels: string;
  before(async () => {
    wheels = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-wheels-'));
    await writeWheel(wheels, { name: 'fancy_dist', version: '1.0', files: { 'fancymod/__init__.py': 'VALUE = 1\n' } });
    await writeWheel(wheels, { name: 'plain_dist', version: '2.0', files: { 'plainmod.py': 'X = 1\n' }, noTopLevel: true });
  });
  after(async () => {
    await fs.rm(wheels, { recursive: true, force: true });
  });

  test('missing modules from pytest output, top-level names, in order, once each', () => {
    const out = [
      "E   ModuleNotFoundError: No module named 'fancymod.sub'",
      'ImportError: No module named yaml',
      "E   ModuleNotFoundError: No module named 'fancymod'",
    ].join('\n');
    assert.deepEqual(missingModules(out), ['fancymod', 'yaml']);
    assert.deepEqual(missingModules('ImportError: cannot import name x from y'), []);
  });

  test("the wheel folder first (top_level.txt, else RECORD), then known mismatches, then the module's name", async () => {
    assert.deepEqual(await findProvider('fancymod', wheels), { distribution: 'fancy-dist', via: 'wheel fancy_dist-1.0-py3-none-any.whl' });
    assert.deepEqual(await findProvider('plainmod', wheels), { distribution: 'plain-dist', via: 'wheel plain_dist-2.0-py3-none-any.whl' });
    assert.deepEqual(await findProvider('yaml', wheels), { distribution: 'PyYAML', via: 'known mismatch' });
    assert.deepEqual(await findProvider('Some_Mod', undefined), { distribution: 'some-mod', via: 'module name' });
  });
});

describe("module providers on a package index (PEP 503's simple pages, served on loopback)", () => {
  let dir: string;
  let server: http.Server;
  let url: string;
  const hits: string[] = [];
  // A simple index built by code: a root page of projects, a page per project linking its
  // wheels (older first) under /packages/, Basic authentication as a private mirror asks.
  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-index-'));
    const packages = path.join(dir, 'packages');
    const files: Record<string, string[]> = {
      'fancy-dist': [
        path.basename(await writeWheel(packages, { name: 'fancy_dist', version: '0.9', files: { 'oldmod/__init__.py': '' } })),
        path.basename(await writeWheel(packages, { name: 'fancy_dist', version: '1.0', files: { 'fancymod/__init__.py': 'VALUE = 1\n' } })),
      ],
      'plain-dist': [path.basename(await writeWheel(packages, { name: 'plain_dist', version: '2.0', files: { 'plainmod.py': 'X = 1\n' }, noTopLevel: true }))],
      'no-wheels': [],
    };
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.headers.authorization !== `Basic ${Buffer.from('reader:s3cret').toString('base64')}`) return void res.writeHead(401).end();
      const parts = (req.url ?? '/').split('/').filter(Boolean);
      if (parts.length === 1 && parts[0] === 'simple')
        return void res.end(
          `<html><body>${Object.keys(files)
            .map((p) => `<a href="${p}/">${p}</a>`)
            .join('\n')}</body></html>`,
        );
      if (parts.length === 2 && parts[0] === 'simple' && files[parts[1]])
        return void res.end(files[parts[1]].map((f) => `<a href="../../packages/${f}#sha256=0">${f}</a><br/>`).join('\n'));
      // A large index: 250 projects besides python-fancymod, whose pages are never read.
      if (parts.length === 1 && parts[0] === 'big')
        return void res.end(['python-fancymod', ...Array.from({ length: 250 }, (_, i) => `p${i}`)].map((p) => `<a href="/big/${p}/">${p}</a>`).join('\n'));
      if (parts.length === 2 && parts[0] === 'big' && parts[1] === 'python-fancymod')
        return void res.end(files['fancy-dist'].map((f) => `<a href="/packages/${f}">${f}</a>`).join('\n'));
      if (parts.length === 2 && parts[0] === 'packages')
        return void fs.readFile(path.join(packages, path.basename(parts[1]))).then(
          (b) => res.end(b),
          () => res.writeHead(404).end(),
        );
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://reader:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}/simple`;
  });
  after(async () => {
    server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test("a module whose distribution has another name is found in the index's newest wheel, credentials from the URL", async () => {
    assert.deepEqual(await findProvider('fancymod', undefined, url), { distribution: 'fancy-dist', via: 'index wheel fancy_dist-1.0-py3-none-any.whl' });
    // RECORD when there is no top_level.txt.
    assert.deepEqual(await findProvider('plainmod', undefined, url), { distribution: 'plain-dist', via: 'index wheel plain_dist-2.0-py3-none-any.whl' });
    // Only the newest wheel counts: oldmod went away in 1.0.
    assert.deepEqual(await findProvider('oldmod', undefined, url), { distribution: 'oldmod', via: 'module name' });
    // One scan: asking again reads no page.
    const before = hits.length;
    assert.deepEqual(await findProvider('fancymod', undefined, url), { distribution: 'fancy-dist', via: 'index wheel fancy_dist-1.0-py3-none-any.whl' });
    assert.equal(hits.length, before);
  });

  test("on a large index, only the projects the module's name suggests are read", async () => {
    const from = hits.length;
    const big = url.replace(/\/simple$/, '/big');
    assert.deepEqual(await findProvider('fancymod', undefined, big), { distribution: 'python-fancymod', via: 'index wheel fancy_dist-1.0-py3-none-any.whl' });
    assert.deepEqual(hits.slice(from), ['/big/', '/big/python-fancymod/', `/packages/fancy_dist-1.0-py3-none-any.whl`]);
  });

  test('an index that refuses or does not answer is passed over: the known table, then the name', async () => {
    const wrong = url.replace('s3cret', 'nope');
    assert.deepEqual(await findProvider('fancymod', undefined, wrong), { distribution: 'fancymod', via: 'module name' });
    assert.deepEqual(await findProvider('yaml', undefined, wrong), { distribution: 'PyYAML', via: 'known mismatch' });
    assert.deepEqual(await findProvider('fancymod', undefined, 'http://127.0.0.1:9/simple'), { distribution: 'fancymod', via: 'module name' });
  });
});
