// The Hugging Face Hub as the downloader sees it: the Hub's own client (@huggingface/hub) lists
// files and resolves their URLs, through a fetch of ours that retries and remembers why a request
// failed (the client keeps the status but drops the Hub's X-Error-Code, which tells a gated
// dataset from a missing one).
import { fileDownloadInfo, HubApiError, listFiles, type ListFileEntry } from '@huggingface/hub';
import { UserError, errorMessage } from '../util/errors';
import { backoffMs, DEFAULT_RETRY, isNetworkError, isRetryableStatus, retryAfterMs, sleep, type RetryPolicy } from './retry-policy';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';
export const DEFAULT_REPO = 'skylenage-ai/SWE-CI';

export interface HubTarget {
  /** owner/name of a dataset repository. */
  repo: string;
  revision: string;
  /** The Hub or a mirror, without a trailing slash. */
  endpoint: string;
  token?: string;
  /** Where the token came from, for messages (e.g. "HF_TOKEN"). */
  tokenSource?: string;
  /** How to give a token, for messages (default: the CLI's HF_TOKEN and --token-env). */
  tokenHelp?: string;
}

/** The Hub refused access (401/403): a gated dataset, or a token that may not read it. */
export class HubAccessError extends UserError {}

/** A file of the repository as the Hub lists it. */
export interface RemoteFile {
  path: string;
  size: number;
  /** SHA-256 of the content for an LFS (or Xet) file: the Hub's LFS object id. */
  sha256?: string;
  /** The git blob id of a plain file. */
  gitOid?: string;
}

export interface RetryNotice {
  what: string;
  /** HTTP status, or the network error's message. */
  reason: string;
  waitMs: number;
  attempt: number;
}

interface FailedRequest {
  status: number;
  errorCode: string | undefined;
}

export class HubClient {
  private readonly failures = new Map<string, FailedRequest>();
  readonly fetch: typeof fetch;

  constructor(
    readonly target: HubTarget,
    private readonly options: { signal?: AbortSignal; retry?: RetryPolicy; onRetry?: (n: RetryNotice) => void } = {},
  ) {
    this.fetch = (input, init) => this.fetchWithRetry(input, init);
  }

  get repoPage(): string {
    return `${this.target.endpoint}/datasets/${this.target.repo}`;
  }

  /** Files under `dir` (recursively), as the Hub lists them; every page is read. */
  async list(dir: string): Promise<RemoteFile[]> {
    const out: RemoteFile[] = [];
    try {
      for await (const entry of listFiles({
        repo: { type: 'dataset', name: this.target.repo },
        revision: this.target.revision,
        path: dir,
        recursive: true,
        hubUrl: this.target.endpoint,
        accessToken: this.target.token,
        fetch: this.fetch,
      })) {
        const file = remoteFile(entry);
        if (file) out.push(file);
      }
    } catch (err) {
      throw this.explain(err, `list ${dir}/`);
    }
    return out;
  }

  /** The URL the bytes of `file` are fetched from, and its size and ETag, as the client resolves them. */
  async resolve(file: string): Promise<{ url: string; size: number; etag: string }> {
    let info;
    try {
      info = await fileDownloadInfo({
        repo: { type: 'dataset', name: this.target.repo },
        revision: this.target.revision,
        path: file,
        hubUrl: this.target.endpoint,
        accessToken: this.target.token,
        fetch: this.fetch,
      });
    } catch (err) {
      throw this.explain(err, `resolve ${file}`);
    }
    if (!info)
      throw new UserError(`${this.target.repo} at ${this.target.revision} has no file ${file} (the Hub listed it a moment ago). Run the download again.`);
    return { url: info.url, size: info.size, etag: info.etag };
  }

  /** Headers every byte request carries: the token, only to the Hub itself (a redirect elsewhere drops it). */
  authHeaders(url: string): Record<string, string> {
    if (!this.target.token) return {};
    return new URL(url).origin === new URL(this.target.endpoint).origin ? { Authorization: `Bearer ${this.target.token}` } : {};
  }

  /** A UserError that says what went wrong with the repository and what to do. */
  explain(err: unknown, what: string): Error {
    if (err instanceof UserError || (err instanceof Error && err.name === 'AbortError')) return err;
    if (err instanceof HubApiError) {
      const failure = this.failures.get(err.url);
      return this.statusError(err.statusCode, failure?.errorCode, what, err.message);
    }
    if (isNetworkError(err)) {
      return new UserError(
        `Cannot reach ${this.target.endpoint} (${what}): ${networkCause(err)}. Check the network, or set HF_ENDPOINT / --endpoint to a mirror you can reach.`,
        { detail: errorMessage(err), cause: err },
      );
    }
    return new UserError(`The Hub's answer to "${what}" was not understood: ${errorMessage(err)}.`, { detail: errorMessage(err), cause: err });
  }

  statusError(status: number, errorCode: string | undefined, what: string, detail = ''): UserError {
    const { repo, revision } = this.target;
    const tokenNote = this.target.token ? `the token in ${this.target.tokenSource ?? 'HF_TOKEN'}` : 'no token (HF_TOKEN is not set)';
    if (errorCode === 'GatedRepo' || ((status === 401 || status === 403) && errorCode !== 'RepoNotFound' && errorCode !== 'RevisionNotFound')) {
      const give = this.target.tokenHelp ?? 'put it in HF_TOKEN (or name another variable with --token-env)';
      return new HubAccessError(
        `${repo} refused access (${status}, ${what}) with ${tokenNote}. If the dataset is gated, accept its terms at ${this.repoPage} while logged in, ` +
          `create a read token at ${this.target.endpoint}/settings/tokens and ${give}.`,
        { detail },
      );
    }
    if (errorCode === 'RepoNotFound' || (status === 404 && errorCode === undefined && what.startsWith('list'))) {
      return new UserError(
        `There is no dataset repository ${repo} on ${this.target.endpoint} (or it is private and ${tokenNote} may read it). Check --repo (the SWE-CI dataset is ${DEFAULT_REPO}).`,
        { detail },
      );
    }
    if (errorCode === 'RevisionNotFound') {
      return new UserError(
        `${repo} has no revision "${revision}". Pass a branch, tag or commit of the repository to --revision (its default branch is main); ${this.repoPage}/tree/main lists them.`,
        {
          detail,
        },
      );
    }
    if (errorCode === 'EntryNotFound' || status === 404) {
      return new UserError(`${repo} at ${revision} has no ${what.replace(/^(list|resolve) /, '')} (${status}).`, { detail });
    }
    return new UserError(`The Hub answered ${status} to "${what}" after retries. Try again later.`, { detail });
  }

  private async fetchWithRetry(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const policy = this.options.retry ?? DEFAULT_RETRY;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(input, { ...init, signal: this.options.signal });
      } catch (err) {
        if (!isNetworkError(err) || attempt > policy.retries) throw err;
        const waitMs = backoffMs(policy, attempt);
        this.options.onRetry?.({ what: url, reason: networkCause(err), waitMs, attempt });
        await sleep(waitMs, this.options.signal);
        continue;
      }
      if (!res.ok) {
        if (isRetryableStatus(res.status) && attempt <= policy.retries) {
          const waitMs = backoffMs(policy, attempt, retryAfterMs(res.headers.get('retry-after')));
          await res.body?.cancel();
          this.options.onRetry?.({ what: url, reason: String(res.status), waitMs, attempt });
          await sleep(waitMs, this.options.signal);
          continue;
        }
        this.failures.set(res.url || url, { status: res.status, errorCode: res.headers.get('x-error-code') ?? undefined });
      }
      return res;
    }
  }
}

function remoteFile(entry: ListFileEntry): RemoteFile | undefined {
  if (entry.type !== 'file') return undefined;
  const file: RemoteFile = { path: entry.path, size: entry.size };
  if (entry.lfs?.oid && /^[0-9a-f]{64}$/i.test(entry.lfs.oid)) {
    file.sha256 = entry.lfs.oid.toLowerCase();
    file.size = entry.lfs.size;
  } else if (entry.oid && /^[0-9a-f]{40}$/i.test(entry.oid)) {
    file.gitOid = entry.oid.toLowerCase();
  }
  return file;
}

export function networkCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? errorMessage(err);
}

/** The token and where it came from: --token-env NAME, else HF_TOKEN. Checked the way the client checks it. */
export function readToken(env: NodeJS.ProcessEnv, tokenEnv?: string): { token?: string; tokenSource?: string } {
  const name = tokenEnv ?? 'HF_TOKEN';
  const value = env[name]?.trim();
  if (tokenEnv && !value) throw new UserError(`--token-env names ${tokenEnv}, but that variable is not set. Export it with your Hugging Face token.`);
  if (!value) return {};
  if (!value.startsWith('hf_')) {
    throw new UserError(`${name} does not hold a Hugging Face access token (they start with "hf_"). Create one at https://huggingface.co/settings/tokens.`);
  }
  return { token: value, tokenSource: name };
}

/** The endpoint: --endpoint, else HF_ENDPOINT, else the public Hub; checked and without a trailing slash. */
export function readEndpoint(env: NodeJS.ProcessEnv, flag?: string, fix = 'Give --endpoint or HF_ENDPOINT as http(s)://host[:port].'): string {
  const raw = (flag ?? env.HF_ENDPOINT ?? DEFAULT_ENDPOINT).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UserError(`The Hub endpoint "${raw}" is not a URL. ${fix}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UserError(`The Hub endpoint "${raw}" is not http(s). ${fix}`);
  }
  return raw.replace(/\/+$/, '');
}

/** owner/name, as the Hub spells repository ids. */
export function checkRepoId(repo: string, fix = 'Give --repo as'): string {
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(repo) || repo.includes('..')) {
    throw new UserError(`"${repo}" is not a Hub dataset id. ${fix} owner/name, e.g. ${DEFAULT_REPO}.`);
  }
  return repo;
}
