// The bytecode seed's store: built once, copied whole into each run's fresh prefix, rebuilt when a
// build was left unfinished, and never in the way of a run when it cannot be built.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureSeed, fillFromSeed, machineSeedStore, seedKey } from '../../../src/core/pytest/bytecode-seed';

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

    assert.notEqual(seedKey('docker · img:1', 'python3'), key, "a container's seed is its own");
    assert.notEqual(seedKey('local · sandboxed', '/opt/venv/bin/python'), key);
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
