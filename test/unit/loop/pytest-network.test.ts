// The code under test's network (issue 43): a Programmer commits a conftest.py that, when pytest
// imports it, tries what a confined agent must not reach: a service on this machine's loopback
// (it holds a secret), an abstract Unix socket, a listener on every address (a TCP Docker engine,
// or the model's upstream server) by this machine's own addresses, and the model gateway's
// loopback port; and a server of its own on 127.0.0.1, which a test suite may start. Real
// scripted agents, real pytest, the real loop, run as root with the default settings
// (sweci.pytest.network "none"); then with "host", which reaches them all and is flagged.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import { startRun } from '../../../src/core/loop/run-loop';

import { lineFlags } from '../../../src/shared/metrics/run-flags';
import { sharedGateway } from '../../../src/core/agents/shared-gateway';
import { missingSandbox } from '../helpers/require-sandbox';
import { DemoWorld, SANDBOX, loopOptions, pytestSettings, pythonScript, scripted } from './demo-fixture';

const SECRET = `loopback-secret-${process.pid}`;

/** Written by the Programmer into code/conftest.py; {CONFIG} is replaced by the probe's targets. */
const CONFTEST = String.raw`
import json, socket, sys, threading
CFG = json.loads({CONFIG})

def connect(addr, family=socket.AF_INET):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(3)
    try:
        s.connect(addr)
        try:
            data = s.recv(200).decode(errors='replace').strip()
        except OSError:
            data = ''
        return 'reached ' + data
    except OSError as e:
        return type(e).__name__
    finally:
        s.close()

own = socket.socket()
own.bind(('127.0.0.1', 0))
own.listen(1)
def serve():
    c, _ = own.accept()
    c.sendall(b'own server')
    c.close()
threading.Thread(target=serve, daemon=True).start()

found = {
    'own': connect(('127.0.0.1', own.getsockname()[1])),
    'hostLoopback': connect(('127.0.0.1', CFG['hostPort'])),
    # Node binds an abstract name padded with NULs to the whole sun_path (108 bytes).
    'abstract': connect(chr(0) + CFG['abstract'].ljust(107, chr(0)), socket.AF_UNIX),
    'gateway': connect(('127.0.0.1', CFG['gatewayPort'])),
    'engine': {a: connect((a, CFG['enginePort'])) for a in CFG['hostAddresses']},
}

# pytest captures what a conftest prints while it loads: the findings go in its summary.
def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line('NETPROBE ' + json.dumps(found))
`;

/** The Programmer: commits the probe once (and changes nothing else). */
const PROGRAMMER = [
  'import os',
  "text = open(os.environ['PROBE_CONFTEST']).read().replace('{CONFIG}', repr(os.environ['PROBE_CONFIG']))",
  "open('code/conftest.py', 'w').write(text)",
].join('\n');

interface Found {
  own: string;
  hostLoopback: string;
  abstract: string;
  gateway: string;
  engine: Record<string, string>;
}

let world: DemoWorld;
const servers: net.Server[] = [];
let config: { hostPort: number; abstract: string; gatewayPort: number; enginePort: number; hostAddresses: string[] };
let programmer: string;
let conftest: string;

function listen(server: net.Server, where: string | number, host?: string): Promise<void> {
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    if (typeof where === 'number') server.listen(where, host, resolve);
    else server.listen(where, resolve);
  });
}

/** One iteration with the probe committed; what its pytest run reached, and its line. */
async function probeRun(name: string, network?: 'host') {
  const task = await world.task(name);
  const roles = {
    architect: scripted('architect.py'),
    programmer: pythonScript(programmer, { env: { PROBE_CONFTEST: conftest, PROBE_CONFIG: JSON.stringify(config) } }),
  };
  await startRun(loopOptions(task, name, roles, { iterations: 1, pytest: { ...pytestSettings, ...(network ? { network } : {}) } }));
  const layout = taskFolder(task.taskDir);
  const [, one] = await readIterationRecords(layout.run(name).iterationsFile);
  const output = await fs.readFile(path.join(layout.run(name).iterationDir(1), 'pytest-output.txt'), 'utf8');
  const line = output.split('\n').find((l) => l.startsWith('NETPROBE '));
  assert.ok(line, `pytest imported the committed conftest.py and it reported:\n${output}`);
  return { found: JSON.parse(line.slice('NETPROBE '.length)) as Found, line: one };
}

describe("the code under test's network", () => {
  before(async () => {
    world = await DemoWorld.create('pytest-network');
    const answer = (text: string) => (s: net.Socket) => {
      s.on('error', () => undefined);
      s.end(text);
    };
    const abstract = `sweci-pytest-network-${process.pid}`;
    const hostTcp = net.createServer(answer(SECRET));
    const engine = net.createServer(answer('{"ApiVersion":"1.41"}'));
    await listen(hostTcp, 0, '127.0.0.1');
    await listen(engine, 0, '0.0.0.0');
    await listen(net.createServer(answer('abstract')), `\0${abstract}`);
    const gateway = await sharedGateway();
    config = {
      hostPort: (hostTcp.address() as net.AddressInfo).port,
      abstract,
      gatewayPort: Number(new URL(gateway.origin ?? '').port),
      enginePort: (engine.address() as net.AddressInfo).port,
      hostAddresses: [
        '127.0.0.1',
        ...Object.values(os.networkInterfaces())
          .flat()
          .filter((a): a is os.NetworkInterfaceInfo => a !== undefined && a.family === 'IPv4' && !a.internal)
          .map((a) => a.address),
      ],
    };
    // Where the scripted agents may read (as a user shows a custom agent its files).
    const scripts = world.scriptedPath('scripts');
    await fs.mkdir(scripts, { recursive: true });
    programmer = path.join(scripts, 'programmer.py');
    conftest = path.join(scripts, 'conftest-probe.py');
    await fs.writeFile(programmer, PROGRAMMER + '\n');
    await fs.writeFile(conftest, CONFTEST);
  });

  after(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await world?.dispose();
  });

  test('with none, a committed conftest reaches its own server and nothing of this machine', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const { found, line } = await probeRun('none');
    t.diagnostic(`none: ${JSON.stringify(found)}`);
    assert.equal(found.own, 'reached own server', "a test suite's own server on 127.0.0.1 still works");
    assert.doesNotMatch(JSON.stringify(found), new RegExp(SECRET), "the loopback service's secret is out of reach");
    assert.notEqual(found.hostLoopback.split(' ')[0], 'reached', 'no loopback service of this machine');
    assert.notEqual(found.abstract.split(' ')[0], 'reached', 'no abstract Unix socket of this machine');
    assert.notEqual(found.gateway.split(' ')[0], 'reached', "not the gateway's loopback port");
    for (const [address, got] of Object.entries(found.engine)) assert.notEqual(got.split(' ')[0], 'reached', `no engine or upstream at ${address}`);
    assert.equal(line.pytest_network, undefined);
    assert.ok(!lineFlags(line).includes('not-isolated'), 'a run that had no network is not flagged for it');
  });

  test('with host, it reaches them all, and the line says so and is flagged not isolated', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const { found, line } = await probeRun('host', 'host');
    t.diagnostic(`host: ${JSON.stringify(found)}`);
    assert.equal(found.own, 'reached own server');
    assert.equal(found.hostLoopback, `reached ${SECRET}`);
    assert.equal(found.abstract, 'reached abstract');
    assert.equal(found.gateway.split(' ')[0], 'reached');
    for (const got of Object.values(found.engine)) assert.match(got, /^reached \{"ApiVersion"/);
    assert.equal(line.pytest_network, 'host');
    assert.ok(lineFlags(line).includes('not-isolated'), 'flagged not isolated');
  });
});
