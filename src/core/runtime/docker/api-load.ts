// How an image archive goes into an engine: Docker's through its API (`POST /images/load`, the
// gzipped archive as it is: the engine decompresses it); an engine whose traits name a loader of
// its own through that one (Podman: podman/podman-load.ts).
import { UserError } from '../../util/errors';
import { engineName, type ArchiveLoader, type DockerConnection } from './docker-connection';

export function archiveLoader(conn: DockerConnection): ArchiveLoader {
  return conn.engine?.loader ?? apiLoader(conn);
}

function apiLoader(conn: DockerConnection): ArchiveLoader {
  return {
    plainTar: false,
    load: async (body, file) => {
      const response = await conn.docker.loadImage(body, { quiet: true });
      await new Promise<void>((resolve, reject) => {
        conn.docker.modem.followProgress(response, (err: Error | null, events: Array<{ error?: string; errorDetail?: { message?: string } }>) => {
          if (err) return reject(err);
          const failed = events.find((e) => e.error || e.errorDetail);
          if (failed)
            return reject(
              new UserError(`${engineName(conn)} could not load ${file}: ${failed.errorDetail?.message ?? failed.error}. Download the task again.`),
            );
          resolve();
        });
      });
    },
  };
}
