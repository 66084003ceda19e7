// A command run in a started container through the engine's exec API, its output drained: the
// benches' floor (what a pytest run costs with no container to make).
import type Docker from 'dockerode';

/** Runs `cmd` in `c` and returns its exit code once the exec's stream has ended. */
export async function execIn(c: Docker.Container, cmd: string[], cwd: string, env: string[] = []): Promise<number> {
  const exec = await c.exec({ Cmd: cmd, WorkingDir: cwd, Env: env, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.on('end', () => resolve());
    stream.on('close', () => resolve());
  });
  return (await exec.inspect()).ExitCode ?? -1;
}
