// One file of the dataset, fetched into a partial file that survives Ctrl-C, a dropped connection
// or a reboot, continued with a range request, and renamed into place only once its size and hash
// match what the Hub lists. The bytes are read with node:http(s) (http-get.ts) on the URL the Hub's
// client resolved: the client's own reader (WebBlob.stream) turns a failed response into a bare
// message, losing the status and Retry-After a resumable, retrying download needs.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import * as path from 'node:path';
import { AbortError, UserError } from '../util/errors';
import type { HubClient, RemoteFile } from './hub-client';
import { backoffMs, DEFAULT_RETRY, isNetworkError, isRetryableStatus, retryAfterMs, sleep, type RetryPolicy } from './retry-policy';
import { networkCause } from './hub-client';
import { discard, httpGet, networkFailure, type GetResponse } from './http-get';
import { BatchedAppend } from './batched-append';
import { HashThread, type PartHasher } from './part-hasher';

export interface FetchFileOptions {
  client: HubClient;
  file: RemoteFile;
  /** Where the verified file goes. */
  dest: string;
  /** The partial file (outside the dataset's data/ folder, so no reader ever takes it for a task). */
  partial: string;
  /** The client's look-up of the file's URL, when the caller started it ahead (undefined: made here when needed). */
  resolved?: Promise<{ url: string; size: number } | undefined>;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** The bytes of this file on disk so far (goes down when a bad partial file is thrown away). */
  onProgress?: (bytesOnDisk: number) => void;
  onRetry?: (reason: string, waitMs: number, attempt: number) => void;
  /** A finished file failed its hash and is fetched again from the start. */
  onMismatch?: (got: string) => void;
  /** The thread that hashes the partial file (the caller's, shared by its jobs); else one for this call. */
  hashThread?: HashThread;
}

export interface FetchFileResult {
  /** Bytes received over the network for this file. */
  received: number;
  /** Bytes that were already in the partial file and kept. */
  resumedFrom: number;
}

/** The hashing thread is told of the bytes on disk at least this often. */
const ADVANCE_STEP = 1 << 20;

export function expectedDigest(file: RemoteFile): { algorithm: 'sha256' | 'sha1'; hex: string; label: string } {
  if (file.sha256) return { algorithm: 'sha256', hex: file.sha256, label: 'SHA-256' };
  if (file.gitOid) return { algorithm: 'sha1', hex: file.gitOid, label: 'git blob id' };
  throw new UserError(`The Hub lists ${file.path} without a hash, so it cannot be verified. Use a mirror that serves the Hub's tree API with LFS ids.`);
}

/** What a hash of `file` starts with: a git blob id hashes a header first. */
function digestPrefix(file: RemoteFile): string | undefined {
  return expectedDigest(file).algorithm === 'sha1' ? `blob ${file.size}\0` : undefined;
}

/** A hash primed as the file's expected digest needs. */
function newHash(file: RemoteFile): Hash {
  const hash = createHash(expectedDigest(file).algorithm);
  const prefix = digestPrefix(file);
  if (prefix !== undefined) hash.update(prefix);
  return hash;
}

/** The digest of a file on disk, as `file`'s listing states it. */
export async function digestOnDisk(file: RemoteFile, at: string, signal?: AbortSignal): Promise<string> {
  const hash = newHash(file);
  for await (const chunk of createReadStream(at, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function sizeOf(p: string): Promise<number> {
  try {
    return (await fs.stat(p)).size;
  } catch {
    return 0;
  }
}

export async function fetchFile(o: FetchFileOptions): Promise<FetchFileResult> {
  const thread = o.hashThread ?? new HashThread();
  const hasher = thread.hasher();
  try {
    return await fetchWith(o, hasher);
  } finally {
    hasher.end();
    if (!o.hashThread) await thread.close();
  }
}

async function fetchWith(o: FetchFileOptions, hasher: PartHasher): Promise<FetchFileResult> {
  const { file, partial, signal } = o;
  const policy = o.retry ?? DEFAULT_RETRY;
  const expected = expectedDigest(file);
  await fs.mkdir(path.dirname(partial), { recursive: true });
  let resumedFrom = await sizeOf(partial);
  if (resumedFrom > file.size) {
    await fs.rm(partial, { force: true });
    resumedFrom = 0;
  }
  // The hashing thread reads back the bytes on disk, so a retry or a resume continues the hash; a
  // resumed file's prefix is hashed there while the rest arrives.
  hasher.begin(partial, expected.algorithm, digestPrefix(file));
  if (resumedFrom > 0) hasher.advance(resumedFrom);
  let onDisk = resumedFrom;
  o.onProgress?.(onDisk);
  let received = 0;
  let mismatches = 0;
  let resolved: { url: string; size: number } | undefined;
  let ahead = o.resolved;
  let attempt = 0;

  const restart = async () => {
    await fs.rm(partial, { force: true });
    hasher.begin(partial, expected.algorithm, digestPrefix(file));
    onDisk = 0;
    o.onProgress?.(0);
  };

  for (;;) {
    if (signal?.aborted) throw new AbortError();
    if (onDisk === file.size) {
      const d = await hasher.digest(signal);
      // A file that cannot be read back whole (changed under us) counts as a wrong one.
      const got = d.hex !== undefined && d.hashed === file.size ? d.hex : `unreadable (${d.error ?? `${d.hashed} of ${file.size} bytes read back`})`;
      if (got === expected.hex) break;
      mismatches++;
      o.onMismatch?.(got);
      await restart();
      if (mismatches >= 2) {
        throw new UserError(
          `${file.path} arrived twice with ${expected.label} ${got}, not the ${expected.hex} the Hub lists for it: the server sends a damaged or different file. ` +
            'Try again later or another endpoint; if the file changed on the Hub, run the download again to list it anew.',
        );
      }
      continue;
    }
    if (resolved === undefined) {
      // A look-up made ahead serves once; a URL resolved again (expired) is looked up anew.
      const early = await ahead;
      ahead = undefined;
      resolved = early ?? (await o.client.resolve(file.path));
    }
    if (resolved.size !== file.size) {
      throw new UserError(
        `${file.path} changed on the Hub while downloading (listed with ${file.size} bytes, now ${resolved.size}). Run the download again to fetch the new version.`,
      );
    }
    const range: Record<string, string> = onDisk > 0 ? { Range: `bytes=${onDisk}-` } : {};
    let res: GetResponse;
    try {
      res = await httpGet(resolved.url, (url) => ({ ...o.client.authHeaders(url), ...range }), { signal });
    } catch (err) {
      if (!isNetworkError(err) || ++attempt > policy.retries) throw wrapNetwork(err, file.path, o.client);
      const waitMs = backoffMs(policy, attempt);
      o.onRetry?.(networkCause(err), waitMs, attempt);
      await sleep(waitMs, signal);
      continue;
    }
    const header = (name: string): string | null => {
      const v = res.headers[name];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    };
    if (res.status === 416) {
      // The server has fewer bytes than our partial file holds: it is not the same file.
      discard(res.body);
      await restart();
      continue;
    }
    if (res.status < 200 || res.status > 299) {
      discard(res.body);
      if (isRetryableStatus(res.status) && ++attempt <= policy.retries) {
        const waitMs = backoffMs(policy, attempt, retryAfterMs(header('retry-after')));
        o.onRetry?.(String(res.status), waitMs, attempt);
        await sleep(waitMs, signal);
        continue;
      }
      // A resolved URL can expire (signed CDN links): resolve again once before giving up.
      if ((res.status === 403 || res.status === 410) && resolved.url !== undefined && attempt === 0) {
        resolved = undefined;
        attempt++;
        continue;
      }
      throw o.client.statusError(res.status, header('x-error-code') ?? undefined, `resolve ${file.path}`);
    }
    if (onDisk > 0 && res.status !== 206) {
      // The range was ignored: the whole file comes again, so start it again.
      await restart();
    } else if (res.status === 206) {
      const start = /^bytes (\d+)-/.exec(header('content-range') ?? '')?.[1];
      if (start === undefined || Number(start) !== onDisk) {
        discard(res.body);
        throw new UserError(
          `The server answered a range request for ${file.path} with the wrong bytes (${header('content-range') ?? 'no Content-Range'}). Use another endpoint.`,
        );
      }
    }
    const before = onDisk;
    try {
      let told = onDisk;
      await appendBody(
        res.body,
        partial,
        onDisk,
        file.size,
        signal,
        (chunk) => {
          onDisk += chunk.length;
          received += chunk.length;
          o.onProgress?.(onDisk);
        },
        (bytesOnDisk) => {
          if (bytesOnDisk - told < ADVANCE_STEP) return;
          told = bytesOnDisk;
          hasher.advance(bytesOnDisk);
        },
      );
    } catch (err) {
      hasher.advance(onDisk);
      if (err instanceof UserError || !isNetworkError(err)) throw err;
      // Progress resets the count: a slow link that keeps dropping still gets there.
      if (onDisk > before) attempt = 0;
      if (++attempt > policy.retries) throw wrapNetwork(err, file.path, o.client);
      const waitMs = backoffMs(policy, attempt);
      o.onRetry?.(networkCause(err), waitMs, attempt);
      await sleep(waitMs, signal);
      continue;
    }
    hasher.advance(onDisk);
    if (onDisk < file.size) {
      // The body ended early without an error: continue where it stopped.
      if (onDisk > before) attempt = 0;
      if (++attempt > policy.retries)
        throw new UserError(`${file.path}: the server keeps ending the file early (${onDisk} of ${file.size} bytes). Try again later.`);
      continue;
    }
  }
  await fs.mkdir(path.dirname(o.dest), { recursive: true });
  await fs.rename(partial, o.dest);
  return { received, resumedFrom };
}

/**
 * Streams the body onto the end of `partial` (which holds `have` bytes), in batches
 * (batched-append.ts). `received` sees each chunk as it arrives, `written` the file's size each
 * time a batch is on disk; the promise settles only once every chunk received is on disk, also
 * when the connection drops, so the caller's count matches the file whenever it continues. More
 * bytes than the file holds is refused (a hostile server cannot fill the disk).
 */
async function appendBody(
  body: IncomingMessage,
  partial: string,
  have: number,
  size: number,
  signal: AbortSignal | undefined,
  received: (chunk: Buffer) => void,
  written: (bytesOnDisk: number) => void,
): Promise<void> {
  let failure: Error | undefined;
  let stop: (err: unknown) => void = () => undefined;
  const out = BatchedAppend.open(partial, have, { written, failed: (err) => stop(err), resume: () => body.resume() });
  let total = have;
  const read = new Promise<void>((resolve) => {
    stop = (err: unknown) => {
      failure ??= err instanceof Error ? err : new Error(String(err));
      body.destroy();
      resolve();
    };
    body.on('data', (chunk: Buffer) => {
      if (failure !== undefined) return;
      if (signal?.aborted) return stop(new AbortError());
      total += chunk.length;
      if (total > size) return stop(new UserError(`The server sent more than the ${size} bytes the Hub lists for a file. Use another endpoint.`));
      received(chunk);
      if (!out.write(chunk)) body.pause();
    });
    body.on('end', () => resolve());
    body.on('error', (err) => stop(signal?.aborted ? new AbortError() : err));
    // A socket closed before the body ended, with no error of its own.
    body.on('close', () => {
      if (!body.complete) stop(signal?.aborted ? new AbortError() : networkFailure('the connection closed before the file ended', 'ECONNRESET'));
      else resolve();
    });
  });
  await read;
  // What arrived before a dropped connection is good: it is written out before anything goes on.
  try {
    await out.end();
  } catch (err) {
    failure ??= err instanceof Error ? err : new Error(String(err));
  }
  if (failure !== undefined) throw failure;
}

function wrapNetwork(err: unknown, file: string, client: HubClient): Error {
  if (err instanceof Error && err.name === 'AbortError') return err;
  return client.explain(err, `fetch ${file}`);
}
