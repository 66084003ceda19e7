// The model gateway of this process (the extension host, or one `sweci` command): started the
// first time an agent needs its model, shared by every run and try after (each try has its own
// token, calls file and bounds), listening on a Unix socket in a private temp folder and on a
// loopback port for agents that are not confined. It keeps no process alive and goes with it.
import { rmSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ModelGateway } from '../gateway/model-gateway';

let started: Promise<ModelGateway> | undefined;

export function sharedGateway(): Promise<ModelGateway> {
  started ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-gateway-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return ModelGateway.start({ socketPath: path.join(dir, 'gateway.sock'), tcp: true, unref: true });
  })();
  // A failed start is tried again by the next step rather than remembered.
  started.catch(() => (started = undefined));
  return started;
}
