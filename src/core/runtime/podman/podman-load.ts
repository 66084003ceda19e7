// Loads a task image archive into Podman's store with `podman load`: a process of its own on the
// store the API service serves (the same global options), the tar fed on its standard input as
// ensure-image.ts decompresses it. Everything else of a load (the lock, the budget and the room
// check, the digest, the tag and id learnt, the label) stays ensureImage's, through the service,
// which sees what the command loaded: both open the same store.
// Why not the service's own load: Podman 4.3's API service took 6 to 17 s of CPU on the 115 MB
// demo archive, most of it after the upload was received, where `podman load` takes about 5.5 s
// (bench/podman.ts); the service is kept for what it does well, containers.
// Podman spools its standard input to a temporary file before loading it (and an OCI archive it
// tries to a temporary folder): each load gets a folder of its own as TMPDIR, beside the store when
// one is named, removed once the process has gone, so a killed load leaves no spool behind.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { AbortError, UserError } from '../../util/errors';
import type { ArchiveLoader } from '../docker/docker-connection';
import { unusableArchive } from '../docker/image-archive';
import { processGroupAlive, signalProcessGroup, untilProcessGroupGone } from '../kill-tree';
import { TailBuffer } from '../tail-buffer';
import type { PodmanSettings } from '../runtime-settings';
import type { PodmanHost } from './podman-preflight';
import { podmanGlobalArgs, podmanStoreName, podmanTmpDir, spawnPodman } from './podman-store';

export function podmanLoader(settings: PodmanSettings, host: PodmanHost): ArchiveLoader {
  return { plainTar: true, load: (body, file, signal) => podmanLoad(settings, host, body, file, signal) };
}

/** Podman's own default for temporary files (containers.conf's image_copy_tmp_dir), when no store is named. */
const spoolParent = (settings: PodmanSettings): string => podmanTmpDir(settings) ?? process.env.TMPDIR ?? '/var/tmp';

/** How long a podman that was killed may take to be gone (its user-namespace child too). */
const GONE_WITHIN_MS = 10_000;

async function podmanLoad(settings: PodmanSettings, host: PodmanHost, body: Readable, file: string, signal?: AbortSignal): Promise<void> {
  // Listened to at once: the stream may fail (a bad archive, a cancel) before podman has started.
  let fed: Error | undefined;
  // Read through a call: set by the listener while this function awaits.
  const fedError = (): Error | undefined => fed;
  let kill = (): void => undefined;
  body.once('error', (err) => {
    fed ??= err;
    kill();
  });
  const parent = spoolParent(settings);
  await fs.mkdir(parent, { recursive: true, mode: 0o700 });
  const spool = await fs.mkdtemp(path.join(parent, 'sweci-load-'));
  try {
    if (signal?.aborted) throw new AbortError();
    const early = fedError();
    if (early) throw early;
    const child = spawnPodman(host, [...podmanGlobalArgs(settings, host), 'load', '--quiet'], {
      cwd: spool,
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, TMPDIR: spool },
    });
    const group = child.pid;
    const stderr = new TailBuffer(8192);
    const stderrClosed = new Promise<void>((resolve) => {
      child.stderr?.setEncoding('utf8').on('data', (c: string) => stderr.append(c));
      child.stderr?.once('close', resolve);
    });
    const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('exit', (code) => resolve({ code }));
    });
    // The whole group: a rootless podman's user-namespace child is not killed with the outer one.
    kill = () => {
      if (group !== undefined) signalProcessGroup(group, 'SIGKILL');
    };
    // We exit (a handled signal, process.exit) while it loads: it goes too.
    process.once('exit', kill);
    signal?.addEventListener('abort', kill, { once: true });
    // EPIPE when podman stops reading: it failed, and its exit says why.
    child.stdin?.on('error', () => undefined);
    if (child.stdin) body.pipe(child.stdin);
    try {
      const { code, error } = await exited;
      if (signal?.aborted) throw new AbortError();
      const failed = fedError();
      if (failed) throw failed;
      if (error) throw new UserError(`Could not start ${host.podman} to load ${file}: ${error.message}.`, { cause: error });
      if (code !== 0) {
        // Its last words; bounded, should a process it left hold the pipe open.
        await Promise.race([stderrClosed, new Promise((r) => setTimeout(r, 1000))]);
        throw loadFailure(settings, file, code, stderr.text());
      }
    } finally {
      signal?.removeEventListener('abort', kill);
      if (group !== undefined && processGroupAlive(group)) {
        kill();
        await untilProcessGroupGone(group, GONE_WITHIN_MS);
      }
      process.removeListener('exit', kill);
    }
  } finally {
    await fs.rm(spool, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Podman's failure in words a user can act on: a full disk and an archive it cannot read each say what to do. */
function loadFailure(settings: PodmanSettings, file: string, code: number | null, stderr: string): UserError {
  const said = stderr
    .trim()
    .split('\n')
    .map((l) => l.replace(/^Error: /, '').trim())
    .filter(Boolean);
  const detail = said.join('\n');
  const where = podmanStoreName(settings);
  if (/no space left on device|disk quota exceeded/i.test(detail)) {
    return new UserError(
      `Podman ran out of disk space loading ${file} into ${where} (it spools the archive in ${spoolParent(settings)}, then stores its layers): ${said.at(-1) ?? ''}. ` +
        'Nothing was loaded. Free space on that disk (sweci images prune --runtime podman removes the task images SWE-CI loaded), set sweci.docker.imageBudgetGb so old task images are removed, or point --podman-root (sweci.podman.root) at a larger disk.',
      { detail },
    );
  }
  if (/does not match any of the supported image formats/i.test(detail)) {
    return unusableArchive(file, 'Podman reads no image in it (it is not the output of `docker save`)', detail);
  }
  return new UserError(
    `Podman could not load ${file} into ${where} (podman load exited with ${code === null ? 'a signal' : `code ${code}`}): ${said.slice(-3).join(' ') || 'it said nothing'}. ` +
      `Check that \`podman ${podmanGlobalArgs(settings, {}).join(' ')} info\` works as this user, download the task again, or load it by hand (gzip -dc ${file} | podman load).`,
    { detail },
  );
}
