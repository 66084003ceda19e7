// The bytecode seed's store: built once, copied whole into each run's fresh prefix, rebuilt when a
// build was left unfinished, and never in the way of a run when it cannot be built.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureSeed, fillFromSeed, machineSeedStore, seedInterpreter, seedKey, seedMounts } from '../../../src/core/pytest/bytecode-seed';

let tmp: string;

/** A build that fills a prefix the way Python does (a mirror of source paths) and counts its calls. */
function fakeBuild(files: Record<string, string>) {
  const calls: string[] = [];
  const build = async (dir: string) => {
    calls.push(dir);
    const prefix = path.join(dir, 'out', 'pycache');
    for (const [rel, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(prefix, rel)), { recursive: true });
      await fs.writeFile(path.join(prefix, rel), text);
    }
    return prefix;
  };
  return { calls, build };
}

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of (await fs.readdir(dir, { recursive: true })).sort()) {
    const p = path.join(dir, rel);
    if ((await fs.stat(p)).isFile()) out[rel] = await fs.readFile(p, 'utf8');
  }
  return out;
}

describe('the bytecode seed', () => {
  before(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-seed-'));
  });
  after(() => fs.rm(tmp, { recursive: true, force: true }));

  test('built once per interpreter and runtime, then copied whole into each fresh prefix', async () => {
    const seeds = path.join(tmp, 'a');
    const files = { 'usr/lib/python3/json/__init__.cpython-311.pyc': 'json', 'usr/lib/python3/_pytest/reports.cpython-311.pyc': 'reports' };
    const { calls, build } = fakeBuild(files);
    const key = seedKey('local · sandboxed', 'python3');
    for (const run of ['one', 'two']) await fillFromSeed(seeds, key, path.join(tmp, 'a-runs', run), build);
    assert.equal(calls.length, 1, 'the second run copies, it does not build');
    assert.deepEqual(await tree(path.join(tmp, 'a-runs', 'one')), files);
    assert.deepEqual(await tree(path.join(tmp, 'a-runs', 'two')), files);
    // A copy, not a link: what a run does to its prefix stays there.
    await fs.writeFile(path.join(tmp, 'a-runs', 'one', 'usr/lib/python3/json/__init__.cpython-311.pyc'), 'forged');
    await fillFromSeed(seeds, key, path.join(tmp, 'a-runs', 'three'), build);
    assert.deepEqual(await tree(path.join(tmp, 'a-runs', 'three')), files);
    assert.deepEqual(await fs.readdir(seeds), [key], 'no build folder is left behind');
    // Removed while this process runs (the user cleared the cache): built again, not taken as known.
    await fs.rm(seeds, { recursive: true });
    await fillFromSeed(seeds, key, path.join(tmp, 'a-runs', 'four'), build);
    assert.equal(calls.length, 2, 'built again');
    assert.deepEqual(await tree(path.join(tmp, 'a-runs', 'four')), files);

    assert.notEqual(seedKey('docker · img:1', 'python3'), key, "a container's seed is its own");
    assert.notEqual(seedKey('local · sandboxed', '/opt/venv/bin/python'), key);
  });

  test("two interpreters both called python3 on this host (a virtual environment first on PATH, then not) keep seeds of their own; in a container the name is the image's", async () => {
    const bins = ['venv', 'machine'].map((d) => path.join(tmp, 'interpreters', d, 'bin'));
    for (const bin of bins) {
      await fs.mkdir(bin, { recursive: true });
      await fs.writeFile(path.join(bin, 'python3'), '#!/bin/sh\n', { mode: 0o755 });
    }
    const [venvFirst, machineOnly] = [bins.join(path.delimiter), bins[1]];
    assert.equal(seedInterpreter('python3', true, venvFirst), path.join(bins[0], 'python3'));
    assert.equal(seedInterpreter('python3', true, machineOnly), path.join(bins[1], 'python3'));
    const key = (searchPath: string) => seedKey('local · sandboxed', seedInterpreter('python3', true, searchPath));
    assert.notEqual(key(venvFirst), key(machineOnly), 'a seed of one does not stand for the other');
    assert.equal(key(venvFirst), key(venvFirst));
    // A path is the user's as given; a name in a container is resolved by the image, not this PATH.
    assert.equal(seedInterpreter('/opt/venv/bin/python', true, venvFirst), '/opt/venv/bin/python');
    assert.equal(seedInterpreter('python3', false, venvFirst), 'python3');
    assert.equal(seedInterpreter('python-none', true, venvFirst), 'python-none', 'not found: the name');
  });

  test('a seed left half-built is built again; a build that could not run leaves no seed and an empty prefix', async () => {
    const seeds = path.join(tmp, 'b');
    const key = seedKey('local', 'python3');
    // What a process that died mid-build leaves: the seed folder without its completion mark.
    await fs.mkdir(path.join(seeds, key, 'usr'), { recursive: true });
    await fs.writeFile(path.join(seeds, key, 'usr', 'half.pyc'), 'half');
    const { calls, build } = fakeBuild({ 'usr/whole.pyc': 'whole' });
    await fillFromSeed(seeds, key, path.join(tmp, 'b-run'), build);
    assert.equal(calls.length, 1);
    assert.deepEqual(await tree(path.join(tmp, 'b-run')), { 'usr/whole.pyc': 'whole' });

    const failing = path.join(tmp, 'c');
    await fillFromSeed(failing, key, path.join(tmp, 'c-run'), () => Promise.resolve(undefined));
    assert.deepEqual(await fs.readdir(failing), [], 'nothing kept');
    assert.deepEqual(await tree(path.join(tmp, 'c-run')).catch(() => ({})), {});

    // pytest ran but wrote no bytecode (an interpreter that cannot start it: the task is
    // init-failed, not failed): no seed, and no error for the run that asked.
    const empty = path.join(tmp, 'd');
    const nothing = (dir: string) => Promise.resolve(path.join(dir, 'out', 'pycache'));
    assert.equal(await ensureSeed(empty, key, nothing), undefined);
    await fillFromSeed(empty, key, path.join(tmp, 'd-run'), nothing);
    assert.deepEqual(await fs.readdir(empty), [], 'nothing kept');
  });

  test('callers that ask at the same time (a checkout building ahead, its first run) share one build', async () => {
    const seeds = path.join(tmp, 'd');
    const key = seedKey('local', 'python3');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { calls, build } = fakeBuild({ 'usr/one.pyc': 'one' });
    const slow = async (dir: string) => {
      await gate;
      return build(dir);
    };
    const ahead = ensureSeed(seeds, key, slow);
    const run = fillFromSeed(seeds, key, path.join(tmp, 'd-run'), slow);
    release();
    assert.equal(await ahead, path.join(seeds, key));
    await run;
    assert.equal(calls.length, 1, 'one build for both');
    assert.deepEqual(await tree(path.join(tmp, 'd-run')), { 'usr/one.pyc': 'one' });
  });

  test('the seed is our own copy of what the seeding run compiled: bytecode files only, read-only, in a store only we can open', async () => {
    const seeds = path.join(tmp, 'e');
    const key = seedKey('local', 'python3');
    const build = async (dir: string) => {
      const prefix = path.join(dir, 'out', 'pycache');
      await fs.mkdir(path.join(prefix, 'usr', 'lib'), { recursive: true });
      await fs.writeFile(path.join(prefix, 'usr', 'lib', 'a.cpython-311.pyc'), 'a');
      await fs.writeFile(path.join(prefix, 'usr', 'lib', 'notes.txt'), 'not bytecode');
      await fs.symlink('/etc/passwd', path.join(prefix, 'usr', 'lib', 'link.cpython-311.pyc'));
      await fs.chmod(path.join(prefix, 'usr', 'lib', 'a.cpython-311.pyc'), 0o666);
      return prefix;
    };
    const seed = await ensureSeed(seeds, key, build);
    assert.equal(seed, path.join(seeds, key));
    assert.deepEqual(await tree(seed), { 'usr/lib/a.cpython-311.pyc': 'a', '.complete': '' });
    assert.equal((await fs.lstat(path.join(seed, 'usr', 'lib', 'a.cpython-311.pyc'))).mode & 0o777, 0o444);
    assert.equal((await fs.lstat(seeds)).mode & 0o777, 0o700);
    assert.deepEqual(await fs.readdir(seeds), [key], 'no build or staging folder is left behind');
  });

  test('a seed with an entry others may write, or that is not a plain file or folder, is thrown away and built again', async () => {
    for (const [name, spoil] of [
      ['writable', (seed: string) => fs.chmod(path.join(seed, 'usr', 'one.pyc'), 0o666)],
      ['open-folder', (seed: string) => fs.chmod(path.join(seed, 'usr'), 0o777)],
      ['link', (seed: string) => fs.symlink('/etc/passwd', path.join(seed, 'usr', 'two.pyc'))],
    ] as const) {
      const seeds = path.join(tmp, `f-${name}`);
      const key = seedKey('local', 'python3');
      // Made as an earlier process would have made it, then spoiled before this process looks.
      await fs.mkdir(path.join(seeds, key, 'usr'), { recursive: true });
      await fs.writeFile(path.join(seeds, key, 'usr', 'one.pyc'), 'forged');
      await fs.writeFile(path.join(seeds, key, '.complete'), '');
      await spoil(path.join(seeds, key));
      const { calls, build } = fakeBuild({ 'usr/one.pyc': 'honest' });
      await fillFromSeed(seeds, key, path.join(tmp, `f-${name}-run`), build);
      assert.equal(calls.length, 1, `${name}: built again`);
      assert.deepEqual(await tree(path.join(tmp, `f-${name}-run`)), { 'usr/one.pyc': 'honest' }, name);
    }
  });

  test("a confined run sees the seed's folders read-only inside its prefix, all but those that hold its code or report folder", async () => {
    const seeds = path.join(tmp, 'g');
    const key = seedKey('local · sandboxed', 'python3');
    const { build } = fakeBuild({
      'usr/lib/python3/json/__init__.cpython-311.pyc': 'json',
      'usr/lib/python3/os.cpython-311.pyc': 'os',
      'work/venv/lib/site/pytest.cpython-311.pyc': 'pytest',
      'work/sitecustomize.cpython-311.pyc': 'site',
      'work/tasks/t/app/code/old.cpython-311.pyc': 'a run of the seed would never hold this',
    });
    const prefix = path.join(tmp, 'g-run', 'pycache');
    const shown = (p: string) => `/seen${p}`;
    const mounts = await seedMounts(seeds, key, prefix, ['/work/tasks/t/app/code', '/work/tasks/t/out'], shown, build);
    const seed = path.join(seeds, key);
    assert.deepEqual(mounts.map((m) => [path.relative(seed, m.source), path.relative(prefix, m.at!), m.target, m.readOnly]).sort(), [
      ['usr', 'usr', shown(path.join(prefix, 'usr')), true],
      ['work/venv', 'work/venv', shown(path.join(prefix, 'work/venv')), true],
    ]);
    // The mount points are there, empty; the one file beside a writable path's folders is copied.
    assert.deepEqual(await tree(prefix), { 'work/sitecustomize.cpython-311.pyc': 'site' });
    assert.deepEqual(await fs.readdir(path.join(prefix, 'usr')), []);
  });

  test("one store per machine, in the user's cache: every task's runs share it", () => {
    const saved = process.env.XDG_CACHE_HOME;
    try {
      process.env.XDG_CACHE_HOME = path.join(tmp, 'xdg');
      assert.equal(machineSeedStore(), path.join(tmp, 'xdg', 'swe-ci', 'bytecode-seeds'));
      delete process.env.XDG_CACHE_HOME;
      assert.equal(machineSeedStore(), path.join(os.homedir(), '.cache', 'swe-ci', 'bytecode-seeds'));
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });
});
