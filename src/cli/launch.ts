// The `sweci` program (dist/cli.js): runs the CLI's bundle, cli-main.js beside it, through V8's
// code cache (code-cache.ts), and keeps the cache of what this command compiled for the next start.
import * as path from 'node:path';
import { userCacheDir } from '../core/util/user-cache';
import { codeCacheFile, compileWithCodeCache } from './code-cache';

const bundle = path.join(__dirname, 'cli-main.js');
// The command names its cache; anything else (an option, a path) shares one.
const command = /^[a-z][a-z-]{0,31}$/.test(process.argv[2] ?? '') ? process.argv[2] : '';
const cacheFile = ((): string | undefined => {
  try {
    return codeCacheFile(path.join(userCacheDir(), 'v8-code'), bundle, command);
  } catch {
    return undefined;
  }
})();
const compiled = compileWithCodeCache(bundle, cacheFile);
process.once('exit', () => compiled.save());
compiled.run();
