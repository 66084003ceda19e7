// The conformance suite's container case: a real CLI (codex) in a container of the task's image,
// through `sweci run --runtime docker`, with no network but the gateway's socket. Apart from the
// rest of the suite (real-agents.test.ts) because it is the one case that needs the Docker
// engine, so the unit tier runs the rest beside the other Docker files.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readRequests, runFlags, sweciIn } from '../../harness/real-clis';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';
import { buildImage } from '../helpers/build-image';
import { repoRoot } from '../helpers/repo-root';
import { assertConformingRun, startConformanceBench, stopConformanceBench, type ConformanceBench } from './conforming-run';

let bench: ConformanceBench;

describe('a real agent CLI in a container, through the loop: sandboxed, loopback only', { timeout: 20 * 60_000 }, () => {
  before(async () => {
    bench = await startConformanceBench('sweci-real-agents-container-');
  });

  after(() => stopConformanceBench(bench));

  test("codex in a container of the task's image (sweci.docker.agentImage), with no network but the gateway's socket", async () => {
    const { tmp, ns, port, demo } = bench;
    const readLog = () => readRequests(bench.serverLog);
    const conn = await dockerForTests();
    // The agent image: the task's image with codex's native binary, as a user adds a CLI to an image.
    const codexBin = path.join(
      repoRoot,
      '.vscode-test',
      'agents',
      'node_modules',
      '@openai',
      'codex-linux-x64',
      'vendor',
      'x86_64-unknown-linux-musl',
      'bin',
      'codex',
    );
    const agentImage = await buildImage(conn, 'sweci/conformance-codex:test', `FROM ${DEMO_IMAGE}\nCOPY codex /usr/local/bin/codex\n`, { codex: codexBin });
    try {
      const experiment = path.join(tmp, 'exp-codex-container');
      const config = path.join(tmp, 'container-agents.json');
      await fs.writeFile(
        config,
        JSON.stringify({ 'sweci.architect.runIn': 'container', 'sweci.programmer.runIn': 'container', 'sweci.docker.agentImage': agentImage }),
      );
      // The harness runs in the loopback-only namespace with the model server; it reaches the engine
      // by its Unix socket. The agents' containers have Docker's `none` network: only the gateway's
      // socket, bound in, and the forwarder on their own loopback.
      const before = (await readLog()).length;
      const r = await sweciIn(
        ns,
        tmp,
        runFlags(demo.datasetDir, experiment, 'codex', port, [
          '--api-key-env',
          'CONFORMANCE_KEY',
          '--max-iterations',
          '1',
          '--runtime',
          'docker',
          '--image',
          DEMO_IMAGE,
          '--config',
          config,
        ]),
        8 * 60_000,
      );
      await assertConformingRun(r, experiment, (await readLog()).slice(before), 'container', 'codex');
    } finally {
      try {
        execFileSync('docker', ['rmi', '-f', agentImage]);
      } catch {
        // already gone
      }
    }
  });
});
