// The model gateway: one per run, in the harness's process. Agents reach it on a Unix socket (mode
// 0666, so the sandbox user can connect; the folder that holds it is the caller's to guard) and,
// for unconfined runs, on 127.0.0.1. A request is matched to its try by the token it carries as
// its key; a token no open try holds is refused with 401 and forwarded nowhere.
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../util/errors';
import { presentedToken } from './client-token';
import { errorBody } from './error-shape';
import { GatewayTry, type OpenTryOptions } from './gateway-try';
import { guessProtocol } from './protocol-routes';
import { MASK } from '../util/secret-mask';

/** Request bodies are read whole (for the record and replay); this bounds what an agent can make the harness hold. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** Requests one try may have in the harness at once, each body held whole (no CLI makes more than a few calls at a time). */
export const MAX_IN_FLIGHT_PER_TRY = 16;

export interface GatewayStartOptions {
  socketPath: string;
  /** Also listen on 127.0.0.1 (a free port), for runs whose agents are not confined. */
  tcp?: boolean;
  /** Listening does not keep the process alive (a gateway shared by every run of a process). */
  unref?: boolean;
}

function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) {
        // What was held goes: the rest is read and dropped (refuse() resumes) so the answer reaches the client.
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function removeStaleSocket(file: string): Promise<void> {
  try {
    const st = await fs.lstat(file);
    if (!st.isSocket()) throw new Error(`${file} exists and is not a socket; the gateway will not replace it`);
    await fs.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

export class ModelGateway {
  private readonly tries = new Map<string, GatewayTry>();
  /** Requests of each try in the harness (body held, answer not yet ended). */
  private readonly inFlight = new Map<string, number>();
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  private readonly servers: http.Server[] = [];

  private constructor(
    readonly socketPath: string,
    /** The loopback port, when started with `tcp`. */
    readonly port: number | undefined,
  ) {}

  /** http://127.0.0.1:<port>, when started with `tcp`. */
  get origin(): string | undefined {
    return this.port === undefined ? undefined : `http://127.0.0.1:${this.port}`;
  }

  static async start(options: GatewayStartOptions): Promise<ModelGateway> {
    await removeStaleSocket(options.socketPath);
    const listen = (server: http.Server, where: { path: string } | { port: number; host: string }) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(where, () => {
          server.off('error', reject);
          resolve();
        });
      });
    const holder: { gateway?: ModelGateway } = {};
    const make = () => http.createServer((req, res) => void holder.gateway?.serve(req, res));
    const unix = make();
    await listen(unix, { path: options.socketPath });
    await fs.chmod(options.socketPath, 0o666);
    let port: number | undefined;
    const servers = [unix];
    if (options.tcp) {
      const tcp = make();
      await listen(tcp, { port: 0, host: '127.0.0.1' });
      port = (tcp.address() as AddressInfo).port;
      servers.push(tcp);
    }
    if (options.unref) for (const server of servers) server.unref();
    const gateway = new ModelGateway(options.socketPath, port);
    gateway.servers.push(...servers);
    holder.gateway = gateway;
    return gateway;
  }

  /** Opens a try: its token is accepted until `close()`. */
  openTry(options: OpenTryOptions): GatewayTry {
    const t = new GatewayTry(options, { agents: this.agents, forget: (token) => this.tries.delete(token) });
    this.tries.set(t.token, t);
    return t;
  }

  /** Closes every try still open, stops listening and removes the socket. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.tries.values()].map((t) => t.close()));
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
    this.agents.http.destroy();
    this.agents.https.destroy();
    await fs.rm(this.socketPath, { force: true });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const token = presentedToken(req.headers, url);
    const t = token !== undefined ? this.tries.get(token) : undefined;
    try {
      // Refused before its body is read: a request without a live token costs the harness nothing.
      if (!t || t.closed) {
        req.resume();
        const protocol = t?.protocol ?? guessProtocol(url.pathname, req.headers);
        res.writeHead(401, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify(errorBody(protocol, 401, 'sweci gateway: this key is not valid (a try token is accepted only while its try runs)')));
        return;
      }
      // Bodies are held whole until answered: a try may have only so many in the harness at once.
      // Refused unread, and recorded as refused calls (their bodies' sizes, not their bodies).
      const refuse = (status: number, reason: string) => {
        req.resume();
        t.refuseUnread(req, url, status, reason);
        res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify(errorBody(t.protocol, status, `sweci gateway: ${reason}`)));
      };
      const inFlight = this.inFlight.get(t.token) ?? 0;
      if (inFlight >= MAX_IN_FLIGHT_PER_TRY) return refuse(429, `more than ${MAX_IN_FLIGHT_PER_TRY} requests at once from one try`);
      const tooBig = `the request body is over ${MAX_REQUEST_BYTES} bytes`;
      // A body that says it is over the cap is not read at all; one that does not say is counted as it comes.
      if (Number(req.headers['content-length']) > MAX_REQUEST_BYTES) return refuse(413, tooBig);
      this.inFlight.set(t.token, inFlight + 1);
      try {
        const body = await readBody(req);
        if (!body) return refuse(413, tooBig);
        await t.handle(req, res, url, body);
      } finally {
        const left = (this.inFlight.get(t.token) ?? 1) - 1;
        if (left > 0) this.inFlight.set(t.token, left);
        else this.inFlight.delete(t.token);
      }
    } catch (err) {
      // A bug or a broken connection: answer if still possible, never with a key.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `sweci gateway: ${errorMessage(err).replace(/sweci-try-[\w-]+/g, MASK)}` } }));
      } else res.destroy();
    }
  }
}
