// An image built on a Docker-compatible engine the caller names: the shared one
// (helpers/docker.ts) or an engine of a test's own (helpers/spare-engine.ts). Kept apart from both
// so that building on an engine of one's own does not put a file in the unit tier's serial lane
// (test/unit-lanes.ts: the serial lane is the files that reach the shared engine's helper).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';

/** An image `tag` built from `dockerfile`, with `files` (name in the context → a host file or folder) beside it. */
export async function buildImage(conn: DockerConnection, tag: string, dockerfile: string, files: Record<string, string>): Promise<string> {
  const context = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-image-'));
  try {
    await fs.writeFile(path.join(context, 'Dockerfile'), dockerfile);
    for (const [name, from] of Object.entries(files)) {
      await fs.cp(from, path.join(context, name), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    }
    const src = (await fs.readdir(context, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(context, path.join(e.parentPath, e.name)));
    const stream = await conn.docker.buildImage({ context, src }, { t: tag });
    await new Promise<void>((resolve, reject) =>
      conn.docker.modem.followProgress(stream, (err: Error | null, events: Array<{ error?: string }>) => {
        const failed = events?.find((e) => e.error);
        if (err || failed) reject(err ?? new Error(failed?.error));
        else resolve();
      }),
    );
    return tag;
  } finally {
    await fs.rm(context, { recursive: true, force: true });
  }
}
