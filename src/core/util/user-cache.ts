// This user's cache folder for SWE-CI (XDG): what is kept between tasks on this machine, such as
// the CLI's oracles and the bytecode seeds. No command of a task sees it (the sandbox shows no home).
import * as os from 'node:os';
import * as path from 'node:path';

export function userCacheDir(): string {
  return process.env.XDG_CACHE_HOME ? path.join(process.env.XDG_CACHE_HOME, 'swe-ci') : path.join(os.homedir(), '.cache', 'swe-ci');
}
