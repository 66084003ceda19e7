// Whether the collector's address takes a connection at all, for a run's end: a refused or
// unresolvable address is known at once, and its last spans are not waited for (the exporter
// would retry them until the exit's bound). Only a TCP connect: nothing is sent.
import * as net from 'node:net';

/** Why `url`'s host and port take no connection (refused, no such host), or undefined when they do or `ms` passes first. */
export function collectorUnreachable(url: string, ms: number): Promise<string | undefined> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(undefined);
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(undefined), ms);
    timer.unref();
    socket.once('connect', () => done(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ECONNREFUSED' ? 'connection refused' : `cannot connect: ${err.code ?? err.message}`),
    );
  });
}
