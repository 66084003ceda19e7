// V8's code cache for the bundled CLI. V8 compiles the 4 MB bundle at every start (about 100 ms
// here), and then each function a command runs; with a cache the start reads that compiled code
// instead. Node 22 does this itself (module.enableCompileCache); Node 20 does not.
// A cache is code that runs: it is kept in this user's cache folder, and used only when the file,
// its folder and the folder above are this user's and no one else may write them (agents never run
// as this user, and no step sees the folder). V8 refuses a cache made by another V8 or other flags;
// a rebuilt bundle gets a key of its own. One cache per command: each holds what that command
// compiled. Anything that fails here only means compiling as Node would.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { ownedAndClosed } from '../core/util/user-cache';

/** What happened to the cache when the bundle was compiled. */
export type CacheOutcome = 'used' | 'none' | 'rejected' | 'untrusted';

export interface CachedBundle {
  outcome: CacheOutcome;
  /** Runs the bundle as `node <bundle>` would: a CommonJS module that is require.main. */
  run(): void;
  /** Writes the cache of what has been compiled so far, when there was none or V8 refused it. Never throws. */
  save(): void;
}

/** Caches kept at most, oldest removed first (one per command and bundle build). */
const KEEP = 48;

/** The cache file for `bundle` run as `command`, in `dir`: keyed by Node, its flags and the bundle file's identity. */
export function codeCacheFile(dir: string, bundle: string, command: string): string {
  const st = fs.statSync(bundle);
  const key = createHash('sha256')
    .update([process.version, process.arch, process.execArgv.join(' '), st.dev, st.ino, st.size, st.mtimeMs, command].join('\0'))
    .digest('hex')
    .slice(0, 32);
  return path.join(dir, `${key}.bin`);
}

function trustedFolder(dir: string): boolean {
  return [dir, path.dirname(dir)].every((d) => {
    const st = fs.lstatSync(d, { throwIfNoEntry: false });
    return st !== undefined && st.isDirectory() && ownedAndClosed(st);
  });
}

/** The cache's bytes; undefined when there is none, 'untrusted' when it or its folders are not this user's alone. */
function readCache(file: string): Buffer | 'untrusted' | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || !ownedAndClosed(st) || !trustedFolder(path.dirname(file))) return 'untrusted';
    return fs.readFileSync(fd);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'untrusted';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Compiles `bundle` with the cache in `cacheFile` (none: as Node would). */
export function compileWithCodeCache(bundle: string, cacheFile: string | undefined): CachedBundle {
  const read = cacheFile === undefined ? undefined : readCache(cacheFile);
  const cachedData = Buffer.isBuffer(read) ? read : undefined;
  const source = fs.readFileSync(bundle, 'utf8');
  // The shebang is not JavaScript; a comment keeps the lines where they are.
  const script = new vm.Script(Module.wrap(source.startsWith('#!') ? `//${source.slice(2)}` : source), { filename: bundle, cachedData });
  const outcome: CacheOutcome = read === 'untrusted' ? 'untrusted' : !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  return {
    outcome,
    run: () => {
      const mod = new Module(bundle);
      mod.filename = bundle;
      const req = Module.createRequire(bundle);
      Object.defineProperty(req, 'main', { value: mod });
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(mod.exports, mod.exports, req, mod, bundle, path.dirname(bundle));
      mod.loaded = true;
    },
    save: () => {
      if (cacheFile === undefined || (outcome !== 'none' && outcome !== 'rejected')) return;
      try {
        writeCache(cacheFile, script.createCachedData());
      } catch {
        // Only the next start is slower.
      }
    },
  };
}

function writeCache(file: string, data: Buffer): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!trustedFolder(dir)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
  const caches = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.bin'))
    .map((n) => ({ n, t: fs.statSync(path.join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.t - a.t);
  for (const old of caches.slice(KEEP)) fs.rmSync(path.join(dir, old.n), { force: true });
}
