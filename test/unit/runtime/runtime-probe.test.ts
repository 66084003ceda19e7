// Which runtimes answer here, as `sweci agents check` reports them (issue 48): on this machine
// (root, with Docker, Podman and bubblewrap set up) all three, each saying as what.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { formatRuntimeProbes, probeRuntimes } from '../../../src/core/runtime/runtime-probe';
import { dockerForTests } from '../helpers/docker';
import { podmanSettings } from '../helpers/podman';

let tmp: string;
before(async () => {
  await dockerForTests();
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-probe-')));
});
after(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

test('on this machine Docker, Podman and the local sandbox answer, each saying as what', async () => {
  const probes = await probeRuntimes(podmanSettings());
  assert.deepEqual(
    probes.map((p) => [p.runtime, p.answers]),
    [
      ['docker', true],
      ['podman', true],
      ['local', true],
    ],
    formatRuntimeProbes(probes),
  );
  assert.match(probes[1].detail, /^Podman \d+\.\d+\.\d+ \(rootful, as root\)$/);
  assert.equal(probes[2].detail, 'sandboxed with bubblewrap');
  assert.match(formatRuntimeProbes(probes), /^Runtimes:\n {2}✓ docker {2}engine .*\n {2}✓ podman {2}Podman /);
});
