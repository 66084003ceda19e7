// The CLI as its own process, awaited without blocking this one (a test that serves or watches
// something meanwhile cannot use spawnSync): its exit code and both streams.
import { spawn } from 'node:child_process';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Runs `node <cli> ...args` in `cwd` with this process's environment. */
export function runCli(cli: string, cwd: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
