// Where the room for a task image's load is checked. A Podman store SWE-CI named (--podman-root)
// is its own folder, known without a question to the engine: Podman's info costs about a second
// (its service asks conmon, the OCI runtime and the network tools for their versions) before
// every load of every process. Without a named store the engine is asked, as Docker is.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import Docker from 'dockerode';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';
import { assertRoomToLoad, localEngineRoot } from '../../../src/core/runtime/docker/engine-room';
import { podmanTraits } from '../../../src/core/runtime/podman/podman-service';

const HOST = { podman: 'podman', rootless: false };
let tmp: string;
let root: string;

/** A connection to a socket nothing listens on: a question to the engine finds no answer. */
const silentEngine = (storeRoot: string): DockerConnection => {
  const socketPath = path.join(tmp, 'nobody-listens.sock');
  return { docker: new Docker({ socketPath }), address: socketPath, engine: podmanTraits({ root: storeRoot, runroot: '' }, HOST) };
};

before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-engine-room-'));
  root = path.join(tmp, 'store');
  await fs.mkdir(root);
});

after(() => fs.rm(tmp, { recursive: true, force: true }));

test('a Podman store SWE-CI named is checked in its own folder, with nothing asked of the engine', async () => {
  assert.equal(await localEngineRoot(silentEngine(root)), root);
  // Podman's own default store: only the engine knows where it is, and here it does not answer.
  assert.equal(await localEngineRoot(silentEngine('')), undefined);
  // A named store that is not a folder here yet: no room is claimed for it.
  assert.equal(await localEngineRoot(silentEngine(path.join(tmp, 'not-made'))), undefined);
});

test("a load that cannot fit the named store's disk is refused naming that folder, the engine silent", async () => {
  const archive = path.join(tmp, 'image.tar.gz');
  await assert.rejects(assertRoomToLoad(silentEngine(root), archive, 1e15), (e: Error) => {
    assert.match(e.message, /needs [\d.]+ [kMGTP]?B \(3000000000000000 bytes\) and (\S+) has /);
    assert.ok(e.message.includes(root), e.message);
    assert.match(e.message, /Nothing was loaded\./);
    return true;
  });
});
