// Turns spawn failures into messages a user can act on (a setting names the executable).

export class SpawnError extends Error {
  constructor(
    message: string,
    readonly command: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'SpawnError';
  }
}

export function spawnErrorFor(command: string, err: NodeJS.ErrnoException): SpawnError {
  switch (err.code) {
    case 'ENOENT':
      return new SpawnError(`Cannot run "${command}": executable not found. Check the setting that names it, or your PATH.`, command, err.code);
    case 'EACCES':
      return new SpawnError(
        `Cannot run "${command}": permission denied. Check that the file is executable, or fix the setting that names it.`,
        command,
        err.code,
      );
    default:
      return new SpawnError(`Cannot run "${command}": ${err.message}`, command, err.code);
  }
}
