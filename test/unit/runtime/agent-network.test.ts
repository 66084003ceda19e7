// A confined agent step's network, for real, in the bubblewrap sandbox and in a container: with
// `gateway` it reaches an HTTP server on a Unix socket of this machine (the model gateway's stand-in)
// through its own 127.0.0.1:<port>, streamed and concurrently, half-closes included; and nothing
// else: not a TCP service on this machine's loopback, not a Docker engine's TCP port (a listener
// on every address stands in for one), not a non-loopback address of this machine, not an abstract
// Unix socket, and a port it binds is not this machine's. The command's exit status is its own,
// and no forwarder outlives the step. Run as root, with the default settings. The container tests
// run against Docker and against Podman (its Docker-compatible service, as --runtime podman uses).
import assert from 'node:assert/strict';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { findBubblewrap, type NetworkConfinement } from '../../../src/core/runtime/sandbox';
import type { Runtime, CommandRequest, RunResult } from '../../../src/core/runtime/runtime';
import { FORWARDER_MARK } from '../../../src/core/runtime/gateway-forwarder';
import { missingSandbox } from '../helpers/require-sandbox';
import { DEMO_IMAGE, dockerForTests, ourContainers } from '../helpers/docker';
import { ENGINES, podmanForTests } from '../helpers/podman';
import type { DockerConnection } from '../../../src/core/runtime/docker/docker-connection';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
const GATEWAY_PORT = 8931;
const PIECE_GAP_MS = 300;
const CONCURRENT = 8;
const HOLD_MS = 800;

/** What the probe does inside the step; prints one JSON line, then exits 37. */
const PROBE = String.raw`
import http.client, json, socket, sys, threading, time
cfg = json.loads(sys.argv[1])
out = {}

def connect(addr, family=socket.AF_INET):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(addr)
        return 'connected'
    except OSError as e:
        return type(e).__name__
    finally:
        s.close()

def get(path):
    c = http.client.HTTPConnection('127.0.0.1', cfg['gatewayPort'], timeout=20)
    c.request('GET', path)
    return c.getresponse()

try:
    start = time.monotonic()
    r = get('/stream')
    pieces = []
    while True:
        data = r.read1(65536)
        if not data:
            break
        pieces.append([round((time.monotonic() - start) * 1000), data.decode()])
    out['stream'] = pieces
except Exception as e:
    out['stream'] = type(e).__name__ + ': ' + str(e)

bodies = [None] * cfg['concurrent']
def fetch(i):
    try:
        bodies[i] = get('/slow/%d' % i).read().decode()
    except Exception as e:
        bodies[i] = type(e).__name__
start = time.monotonic()
threads = [threading.Thread(target=fetch, args=(i,)) for i in range(cfg['concurrent'])]
for t in threads: t.start()
for t in threads: t.join()
out['concurrent'] = {'bodies': bodies, 'ms': round((time.monotonic() - start) * 1000)}

try:
    s = socket.create_connection(('127.0.0.1', cfg['gatewayPort']), timeout=10)
    s.sendall(b'POST /echo HTTP/1.1\r\nHost: gateway\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello')
    s.shutdown(socket.SHUT_WR)
    got = b''
    while True:
        data = s.recv(65536)
        if not data:
            break
        got += data
    out['halfClose'] = got.decode().split('\r\n\r\n', 1)[-1]
except Exception as e:
    out['halfClose'] = type(e).__name__

out['hostLoopback'] = connect(('127.0.0.1', cfg['hostTcpPort']))
out['engine'] = {a: connect((a, cfg['enginePort'])) for a in ['127.0.0.1'] + cfg['hostAddresses']}
# Node binds an abstract name padded with NULs to the whole sun_path (108 bytes): unpadded, the
# connect would miss it even on an open network, and its "not reachable" could never fail.
out['abstract'] = connect(chr(0) + cfg['abstract'].ljust(107, chr(0)), socket.AF_UNIX)

b = socket.socket()
b.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
b.bind(('127.0.0.1', cfg['bindPort']))
b.listen(5)
print('BOUND', flush=True)
time.sleep(2)
b.close()
print(json.dumps(out), flush=True)
sys.exit(37)
`;

interface ProbeConfig {
  gatewayPort: number;
  concurrent: number;
  hostTcpPort: number;
  enginePort: number;
  hostAddresses: string[];
  abstract: string;
  bindPort: number;
}

interface ProbeResult {
  stream: [number, string][] | string;
  concurrent: { bodies: (string | null)[]; ms: number };
  halfClose: string;
  hostLoopback: string;
  engine: Record<string, string>;
  abstract: string;
}

/** The gateway's stand-in and the things a step must not reach, on this machine. */
class Host {
  private readonly servers: net.Server[] = [];
  private inFlight = 0;
  peak = 0;
  socket = '';
  config!: ProbeConfig;

  async start(dir: string): Promise<void> {
    this.socket = path.join(dir, 'gateway.sock');
    const gateway = http.createServer((req, res) => {
      res.on('error', () => undefined);
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        let i = 0;
        const next = (): void => {
          res.write(`piece ${i}\n`);
          if (++i < 3) setTimeout(next, PIECE_GAP_MS);
          else res.end();
        };
        return next();
      }
      if (req.url?.startsWith('/slow/')) {
        this.peak = Math.max(this.peak, ++this.inFlight);
        setTimeout(() => {
          this.inFlight--;
          res.end(`slow ${req.url?.slice(6)}`);
        }, HOLD_MS);
        return;
      }
      const body: Buffer[] = [];
      req.on('data', (c: Buffer) => body.push(c));
      req.on('end', () => res.end(`echo:${Buffer.concat(body).toString()}`));
    });
    await this.listen(gateway, this.socket);
    // The sandbox user (or the container's) connects to it: the gateway's socket is for anyone who reaches it.
    await fs.chmod(this.socket, 0o666);
    // A prober that resets its connection (a step killed mid-probe) is no error of the test's.
    const answer = (text: string) => (s: net.Socket) => {
      s.on('error', () => undefined);
      s.end(text);
    };
    const hostTcp = net.createServer(answer('host loopback service\n'));
    const engine = net.createServer(answer('HTTP/1.1 200 OK\r\n\r\n{"ApiVersion":"1.41"}'));
    const abstract = net.createServer(answer('abstract\n'));
    const abstractName = `sweci-test-abstract-${process.pid}-${Date.now()}`;
    await this.listen(hostTcp, 0, '127.0.0.1');
    await this.listen(engine, 0, '0.0.0.0');
    await this.listen(abstract, `\0${abstractName}`);
    this.config = {
      gatewayPort: GATEWAY_PORT,
      concurrent: CONCURRENT,
      hostTcpPort: (hostTcp.address() as net.AddressInfo).port,
      enginePort: (engine.address() as net.AddressInfo).port,
      hostAddresses: Object.values(os.networkInterfaces())
        .flat()
        .filter((a): a is os.NetworkInterfaceInfo => a !== undefined && a.family === 'IPv4' && !a.internal)
        .map((a) => a.address),
      abstract: abstractName,
      bindPort: await freePort(),
    };
  }

  private listen(server: net.Server, where: string | number, host?: string): Promise<void> {
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      if (typeof where === 'number') server.listen(where, host, resolve);
      else server.listen(where, resolve);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => new Promise((r) => s.close(r))));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setTimeout(2000, () => (s.destroy(), resolve('timeout')));
    s.once('connect', () => (s.destroy(), resolve('connected')));
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

/**
 * Processes of this machine (in any namespace, containers included) that are a gateway forwarder
 * of this file's steps: listening on GATEWAY_PORT, the argument before `--`. Other test files
 * running beside this one have forwarders of their own, on the product's port.
 */
function forwarders(): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.includes(FORWARDER_MARK)) && argv[argv.indexOf('--') - 1] === String(GATEWAY_PORT)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Runs the probe in `runtime` with `network`; while it holds its port, tries that port from here. */
async function probe(runtime: Runtime, host: Host, app: string, appInStep: string, network: NetworkConfinement) {
  const file = path.join(app, 'probe.py');
  await fs.writeFile(file, PROBE);
  let boundSeen: Promise<string> | undefined;
  const result = await runtime.run({
    command: PYTHON,
    args: [path.posix.join(appInStep, 'probe.py'), JSON.stringify(host.config)],
    cwd: appInStep,
    mounts: [{ source: app, target: appInStep }],
    confine: { hide: [], network },
    timeoutMs: 60_000,
    onOutput: (chunk) => {
      if (chunk.includes('BOUND')) boundSeen ??= tryConnect(host.config.bindPort);
    },
  });
  const line = result.stdout.split('\n').find((l) => l.startsWith('{'));
  assert.ok(line, `the probe printed its findings: ${result.stdout}${result.stderr}`);
  return { result, found: JSON.parse(line) as ProbeResult, fromHost: await boundSeen, leftOver: forwarders() };
}

function assertConfinedToGateway(host: Host, run: Awaited<ReturnType<typeof probe>>): void {
  const { result, found, fromHost, leftOver } = run;
  assert.equal(result.exitCode, 37, `the command's exit code passes through: ${result.stderr}`);
  assert.ok(Array.isArray(found.stream), `the gateway answered a streamed request: ${JSON.stringify(found.stream)}`);
  assert.equal(found.stream.map(([, text]) => text).join(''), 'piece 0\npiece 1\npiece 2\n');
  const times = found.stream.map(([ms]) => ms);
  assert.ok(found.stream.length >= 3, `the stream arrived in pieces, as sent: ${JSON.stringify(found.stream)}`);
  assert.ok(times[times.length - 1] - times[0] >= PIECE_GAP_MS, `the first piece came before the last was sent: ${JSON.stringify(found.stream)}`);
  assert.deepEqual(
    found.concurrent.bodies,
    Array.from({ length: CONCURRENT }, (_, i) => `slow ${i}`),
  );
  assert.ok(host.peak >= CONCURRENT, `the ${CONCURRENT} requests were at the gateway at once (peak ${host.peak})`);
  assert.equal(found.halfClose, 'echo:hello', 'a request whose sender half-closed is answered');
  assert.notEqual(found.hostLoopback, 'connected', "a TCP service on this machine's loopback is not reachable");
  for (const [address, outcome] of Object.entries(found.engine)) assert.notEqual(outcome, 'connected', `the engine's TCP port at ${address} is not reachable`);
  assert.ok(host.config.hostAddresses.length > 0, 'this machine has a non-loopback address to try');
  assert.notEqual(found.abstract, 'connected', 'an abstract Unix socket of this machine is not reachable');
  assert.notEqual(fromHost, 'connected', "the port the step bound is not on this machine's loopback");
  assert.deepEqual(leftOver, [], 'no forwarder outlives the step');
}

/** The exit status of a command killed by SIGTERM, and of one that exits leaving a child behind. */
async function statuses(runtime: Runtime, app: string, appInStep: string, network: NetworkConfinement): Promise<Pick<RunResult, 'exitCode' | 'signal'>[]> {
  const req = (script: string): CommandRequest => ({
    command: 'sh',
    args: ['-c', script],
    cwd: appInStep,
    mounts: [{ source: app, target: appInStep }],
    confine: { hide: [], network },
    timeoutMs: 30_000,
  });
  const out: Pick<RunResult, 'exitCode' | 'signal'>[] = [];
  for (const script of ['kill -TERM $$', 'sleep 30 & exit 3', 'exit 0']) {
    const r = await runtime.run(req(script));
    out.push({ exitCode: r.exitCode, signal: r.signal });
  }
  return out;
}

describe("a confined agent step's network", () => {
  let tmp: string;
  let host: Host;

  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-net-')));
    host = new Host();
    await host.start(tmp);
  });
  after(async () => {
    await host.close();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const freshApp = async (name: string): Promise<string> => {
    const app = path.join(tmp, name);
    await fs.mkdir(app, { recursive: true });
    return app;
  };

  describe('in the bubblewrap sandbox', () => {
    let bwrap: string | undefined;
    before(async () => {
      bwrap = await findBubblewrap();
    });

    test('with the gateway it reaches an HTTP server on a Unix socket of this machine through its own loopback port (streamed, concurrent, half-closed), and nothing else; its exit code is its own; no forwarder is left', async (t) => {
      if (!bwrap) return missingSandbox(t);
      const rt = new LocalRuntime({ bwrap });
      host.peak = 0;
      try {
        const app = await freshApp('sandbox-gateway');
        assertConfinedToGateway(host, await probe(rt, host, app, app, { kind: 'gateway', socket: host.socket, port: GATEWAY_PORT }));
      } finally {
        await rt.dispose();
      }
    });

    test("with no network ('none') it reaches neither the gateway nor anything else", async (t) => {
      if (!bwrap) return missingSandbox(t);
      const rt = new LocalRuntime({ bwrap });
      try {
        const app = await freshApp('sandbox-none');
        const { result, found, fromHost } = await probe(rt, host, app, app, { kind: 'none' });
        assert.equal(result.exitCode, 37);
        assert.equal(typeof found.stream, 'string', 'no gateway to stream from');
        assert.notEqual(found.hostLoopback, 'connected');
        for (const outcome of Object.values(found.engine)) assert.notEqual(outcome, 'connected');
        assert.notEqual(found.abstract, 'connected');
        assert.notEqual(fromHost, 'connected');
      } finally {
        await rt.dispose();
      }
    });

    test("the control: on the open network the same probe reaches the loopback service and the abstract socket (so its 'not reachable' above can fail)", async (t) => {
      if (!bwrap) return missingSandbox(t);
      const rt = new LocalRuntime({ bwrap });
      try {
        const app = await freshApp('sandbox-open');
        const { found } = await probe(rt, host, app, app, { kind: 'open' });
        assert.equal(found.hostLoopback, 'connected', JSON.stringify(found));
        assert.equal(found.abstract, 'connected', JSON.stringify(found));
      } finally {
        await rt.dispose();
      }
    });

    test('through the forwarder a command ends as it would without it: killed by the same signal, its exit code, a child it left behind does not hold it', async (t) => {
      if (!bwrap) return missingSandbox(t);
      const rt = new LocalRuntime({ bwrap });
      try {
        const app = await freshApp('sandbox-status');
        const open = await statuses(rt, app, app, { kind: 'open' });
        const gateway = await statuses(rt, app, app, { kind: 'gateway', socket: host.socket, port: GATEWAY_PORT });
        assert.deepEqual(gateway, open);
        assert.equal(open[1].exitCode, 3);
        assert.deepEqual(forwarders(), []);
      } finally {
        await rt.dispose();
      }
    });
  });

  for (const engine of ENGINES)
    describe(`in a container (${engine})`, () => {
      let conn: DockerConnection;
      let rt: DockerRuntime;
      let release: () => Promise<void> = () => Promise.resolve();
      before(async () => {
        if (engine === 'podman') {
          const service = await podmanForTests();
          conn = service.connection;
          release = () => service.release();
        } else conn = await dockerForTests();
        // As task-environment.ts makes the agents' runtime: the network on (the bridge) for open agents.
        rt = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'agent', network: true });
      });
      after(async () => {
        await rt?.dispose();
        if (conn) assert.deepEqual(await ourContainers(conn), [], 'every container is removed');
        await release();
      });

      test('with the gateway it reaches an HTTP server on a Unix socket of this machine through its own loopback port (streamed, concurrent, half-closed), and nothing else; its exit code is its own; no forwarder is left', async () => {
        host.peak = 0;
        const app = await freshApp(`${engine}-gateway`);
        assertConfinedToGateway(host, await probe(rt, host, app, '/app', { kind: 'gateway', socket: host.socket, port: GATEWAY_PORT }));
      });

      test("with no network ('none') it reaches neither the gateway nor anything else; with 'open' it has the bridge", async () => {
        const app = await freshApp(`${engine}-none`);
        const none = await probe(rt, host, app, '/app', { kind: 'none' });
        assert.equal(none.result.exitCode, 37);
        assert.equal(typeof none.found.stream, 'string');
        for (const outcome of Object.values(none.found.engine)) assert.notEqual(outcome, 'connected');
        const open = await probe(rt, host, app, '/app', { kind: 'open' });
        assert.ok(
          Object.values(open.found.engine).includes('connected'),
          `an open agent container still has the bridge (sweci.docker.agentNetwork): ${JSON.stringify(open.found.engine)}`,
        );
      });

      test('through the forwarder a command ends as it would without it', async () => {
        const app = await freshApp(`${engine}-status`);
        const open = await statuses(rt, app, '/app', { kind: 'open' });
        const gateway = await statuses(rt, app, '/app', { kind: 'gateway', socket: host.socket, port: GATEWAY_PORT });
        assert.deepEqual(gateway, open);
        assert.equal(open[1].exitCode, 3);
        assert.deepEqual(forwarders(), []);
      });
    });
});
