// The CLI's V8 code cache (src/cli/code-cache.ts): `sweci` writes it once and reads it after, prints
// the same either way, and never runs a cache that someone else could have written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { codeCacheFile } from '../../../src/cli/code-cache';
import { repoRoot } from '../helpers/repo-root';

const LAUNCHER = path.join(repoRoot, 'dist', 'cli.js');
const BUNDLE = path.join(repoRoot, 'dist', 'cli-main.js');
let tmp: string;

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-code-cache-'));
});

after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A small CommonJS "bundle" that reports how it was run. */
function fixtureBundle(name: string, body = ''): string {
  const file = path.join(tmp, `${name}.js`);
  const functions = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${body.length}; }`).join('\n');
  fs.writeFileSync(
    file,
    `#!/usr/bin/env node\n${functions}\n${body}\nglobalThis.__ran = { main: require.main === module, filename: __filename, os: typeof require('node:os').cpus, sum: f1(2) + f49(1) };\nmodule.exports.answer = 42;\n`,
  );
  return file;
}

/** A cache folder as `sweci` makes it: this user's alone. */
function cacheDir(name: string): string {
  const dir = path.join(tmp, name, 'swe-ci', 'v8-code');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(dir), 0o700);
  return dir;
}

const CODE_CACHE = path.join(repoRoot, 'out', 'src', 'cli', 'code-cache.js');

interface Outcome {
  outcome: string;
  ran: { main: boolean; filename: string; os: string; sum: number };
}

/**
 * Compiles and runs `bundle` with `cache` in a process of its own (V8 keeps what it compiled in
 * memory: a second compile here would never look at the cache), saving the cache as `sweci` does
 * at exit.
 */
function runOnce(bundle: string, cache: string): Outcome {
  const driver = `const c = require(${JSON.stringify(CODE_CACHE)}).compileWithCodeCache(process.argv[1], process.argv[2]);
c.run();
c.save();
console.log(JSON.stringify({ outcome: c.outcome, ran: globalThis.__ran }));`;
  const r = spawnSync(process.execPath, ['-e', driver, bundle, cache], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Outcome;
}

describe('the code cache', () => {
  test('none at first; saved; used after, and the module runs as node would run it', () => {
    const bundle = fixtureBundle('plain');
    const cache = codeCacheFile(cacheDir('plain'), bundle, 'run');
    const first = runOnce(bundle, cache);
    assert.equal(first.outcome, 'none');
    assert.deepEqual(first.ran, { main: true, filename: bundle, os: 'function', sum: 51 });
    const st = fs.statSync(cache);
    assert.equal(st.mode & 0o777, 0o600, 'the cache is the user’s alone');
    const second = runOnce(bundle, cache);
    assert.equal(second.outcome, 'used');
    assert.deepEqual(second.ran, { main: true, filename: bundle, os: 'function', sum: 51 });
    assert.equal(fs.statSync(cache).ino, st.ino, 'a cache that was used is not written again');
  });

  test('one V8 refuses (damaged) is written again', () => {
    const bundle = fixtureBundle('damaged');
    const cache = codeCacheFile(cacheDir('damaged'), bundle, 'run');
    runOnce(bundle, cache);
    const bytes = fs.readFileSync(cache);
    bytes.fill(7, 0, 64);
    fs.writeFileSync(cache, bytes);
    assert.equal(runOnce(bundle, cache).outcome, 'rejected');
    assert.equal(runOnce(bundle, cache).outcome, 'used');
  });

  test('a rebuilt bundle, another command or another Node flag set has a cache of its own', () => {
    const dir = cacheDir('keys');
    const bundle = fixtureBundle('keys');
    const before = codeCacheFile(dir, bundle, 'run');
    assert.notEqual(codeCacheFile(dir, bundle, 'leaderboard'), before);
    fixtureBundle('keys', '// rebuilt');
    fs.utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    assert.notEqual(codeCacheFile(dir, bundle, 'run'), before);
  });

  for (const [what, spoil] of [
    ['a cache others may write', (cache: string) => fs.chmodSync(cache, 0o666)],
    ['a cache of another user', (cache: string) => fs.chownSync(cache, 65534, 65534)],
    ['a cache in a folder others may write', (cache: string) => fs.chmodSync(path.dirname(cache), 0o777)],
    ['a cache in a folder whose parent others may write', (cache: string) => fs.chmodSync(path.dirname(path.dirname(cache)), 0o777)],
    [
      'a link in the cache’s place',
      (cache: string) => {
        fs.renameSync(cache, `${cache}.real`);
        fs.symlinkSync(`${cache}.real`, cache);
      },
    ],
  ] as const) {
    test(`${what} is neither run nor replaced`, () => {
      const name = what.replace(/\W+/g, '-');
      const bundle = fixtureBundle(name);
      const cache = codeCacheFile(cacheDir(name), bundle, 'run');
      runOnce(bundle, cache);
      spoil(cache);
      const before = fs.lstatSync(cache);
      const compiled = runOnce(bundle, cache);
      assert.equal(compiled.outcome, 'untrusted');
      assert.equal(compiled.ran.sum, 51, 'it runs, compiled as Node would');
      const now = fs.lstatSync(cache);
      assert.deepEqual([now.ino, now.mtimeMs], [before.ino, before.mtimeMs], 'left as it was');
    });
  }
});

describe('sweci through its launcher (dist/cli.js)', () => {
  const sweci = (home: string, ...args: string[]) =>
    spawnSync(process.execPath, [LAUNCHER, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: home } });

  test('the first start writes the command’s cache, the next reads it; both print the same', () => {
    const home = path.join(tmp, 'cli-home');
    const first = sweci(home, 'leaderboard', '--help');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /leaderboard/);
    const dir = path.join(home, 'swe-ci', 'v8-code');
    const caches = fs.readdirSync(dir);
    assert.equal(caches.length, 1, caches.join(', '));
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const written = fs.statSync(path.join(dir, caches[0]));
    const second = sweci(home, 'leaderboard', '--help');
    assert.deepEqual([second.status, second.stdout, second.stderr], [first.status, first.stdout, first.stderr]);
    assert.equal(fs.statSync(path.join(dir, caches[0])).mtimeMs, written.mtimeMs, 'read, not written again');
    // The same program without the launcher prints the same.
    const bare = spawnSync(process.execPath, [BUNDLE, 'leaderboard', '--help'], { encoding: 'utf8' });
    assert.equal(bare.stdout, first.stdout);
  });

  test('an error exits as it does without the launcher', () => {
    const r = sweci(path.join(tmp, 'cli-error'), 'summarize', path.join(tmp, 'no-such-experiment'));
    const bare = spawnSync(process.execPath, [BUNDLE, 'summarize', path.join(tmp, 'no-such-experiment')], { encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.deepEqual([r.status, r.stderr], [bare.status, bare.stderr]);
  });

  test('the bundle it compiles calls no import(): node:vm runs none without an experimental flag', () => {
    const code = fs
      .readFileSync(BUNDLE, 'utf8')
      .split('\n')
      .filter((l) => !/^\s*(\*|\/\/|\/\*)/.test(l));
    const calls = code.filter((l) => /(^|[^\w$.])import\(\s*[^)]/.test(l));
    assert.deepEqual(calls, []);
  });
});
