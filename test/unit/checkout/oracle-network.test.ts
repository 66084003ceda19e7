// The oracle's own pytest run (the target's tests on the target, on checkout) is confined like
// every run of the task's code: with sweci.pytest.network "none" (the default) its tests reach
// their own server on 127.0.0.1 and nothing of this machine, and a test that needs the internet
// fails with a note that names the setting which allows it. In the sandbox (run as root) and in a
// container, where the same note names sweci.docker.network.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkOutTask } from '../../../src/core/checkout/check-out-task';
import { loadReport } from '../../../src/core/checkout/report-store';
import { runPytest } from '../../../src/core/pytest/run-pytest';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { pytestNetwork } from '../../../src/core/runtime/task-confinement';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import { taskFromGitPair } from '../../../src/core/task/git-pair';
import { oracleLayout } from '../../../src/core/workspace/layout';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { TestRepo } from '../task/git-fixture';
import { missingSandbox } from '../helpers/require-sandbox';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';

const PYTHON = process.env.SWECI_PYTHON ?? 'python3';
const SECRET = `oracle-secret-${process.pid}`;

/** The target's tests: one reaches its own server, one this machine's loopback service, one the internet. */
const TESTS = (port: number) =>
  [
    'import socket, threading',
    '',
    'def test_own_server():',
    '    own = socket.socket()',
    "    own.bind(('127.0.0.1', 0))",
    '    own.listen(1)',
    "    threading.Thread(target=lambda: own.accept()[0].sendall(b'own'), daemon=True).start()",
    "    c = socket.create_connection(('127.0.0.1', own.getsockname()[1]), timeout=5)",
    "    assert c.recv(10) == b'own'",
    '',
    'def test_host_service():',
    `    c = socket.create_connection(('127.0.0.1', ${port}), timeout=5)`,
    "    print('SECRET-SEEN', c.recv(100).decode())",
    '',
    'def test_internet():',
    "    socket.getaddrinfo('example.com', 443)",
    '',
  ].join('\n');

let tmp: string;
let repo: TestRepo;
let base: string;
let target: string;
let server: net.Server;

describe("the oracle's pytest run has no network", () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-oracle-network-')));
    server = net.createServer((s) => {
      s.on('error', () => undefined);
      s.end(SECRET);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    repo = await TestRepo.create(path.join(tmp, 'lib'));
    base = await repo.commit('base', { 'src/lib/__init__.py': '', 'tests/test_net.py': 'def test_own_server():\n    pass\n' });
    target = await repo.commit('target', { 'src/lib/core.py': 'X = 1\n', 'tests/test_net.py': TESTS(port) });
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await fs.rm(tmp, { recursive: true, force: true });
  });

  test('sandbox: the target reaches its own server only, and the note names sweci.pytest.network', async (t) => {
    const bwrap = await findBubblewrap();
    if (!bwrap) return missingSandbox(t);
    const progress: string[] = [];
    const oracleDir = path.join(tmp, 'oracle-local');
    await checkOutTask(await taskFromGitPair(repo.dir, base, target), {
      python: PYTHON,
      timeoutMs: 120_000,
      format: 'builtin',
      task: taskFolder(path.join(tmp, 'task-local')),
      oracleDir,
      runtime: new LocalRuntime({ bwrap }),
      runTests: true,
      onProgress: (m) => progress.push(m),
    });
    const report = await loadReport(oracleLayout(oracleDir).targetReportFile);
    const outcome = (name: string) => report?.tests.find((x) => x.nodeid.endsWith(`::${name}`))?.outcome;
    assert.equal(outcome('test_own_server'), 'passed', "a test's own server on 127.0.0.1 works");
    assert.equal(outcome('test_host_service'), 'failed', "this machine's loopback service is out of the oracle run's reach");
    assert.equal(outcome('test_internet'), 'failed');
    const output = await fs.readFile(path.join(oracleLayout(oracleDir).root, 'target.pytest-output.txt'), 'utf8');
    assert.doesNotMatch(output, new RegExp(SECRET));
    const note = progress.find((m) => m.includes('sweci.pytest.network'));
    assert.ok(note, `checkout says why a test failed and what allows it: ${progress.join(' | ')}`);
    assert.match(note, /Temporary failure in name resolution/);
    assert.match(note, /"host"/);
  });

  test('a run that does not start for want of a network says so, in the sandbox and in a container', async (t) => {
    const bwrap = await findBubblewrap();
    if (!bwrap) return missingSandbox(t);
    const code = path.join(tmp, 'offline-code');
    await fs.mkdir(path.join(code, 'tests'), { recursive: true });
    // A conftest that downloads something while it loads: collection stops.
    await fs.writeFile(path.join(code, 'tests', 'conftest.py'), "import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=5)\n");
    await fs.writeFile(path.join(code, 'tests', 'test_x.py'), 'def test_x():\n    pass\n');
    const local = await runPytest(new LocalRuntime({ bwrap }), {
      python: PYTHON,
      codeDir: code,
      reportFile: path.join(tmp, 'offline-out', 'report'),
      format: 'builtin',
      confine: { hide: [], network: pytestNetwork(undefined) },
    });
    assert.equal(local.kind, 'did-not-run');
    assert.match(local.kind === 'did-not-run' ? local.reason : '', /Network is unreachable.*set sweci\.pytest\.network to "host"/s);

    const conn = await dockerForTests();
    const docker = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'pytest', prestart: false });
    try {
      const inContainer = await runPytest(docker, {
        python: 'python',
        codeDir: code,
        reportFile: path.join(tmp, 'offline-out-docker', 'report'),
        format: 'builtin',
        confine: { hide: [], network: pytestNetwork(undefined) },
      });
      assert.equal(inContainer.kind, 'did-not-run');
      assert.match(inContainer.kind === 'did-not-run' ? inContainer.reason : '', /Network is unreachable.*set sweci\.docker\.network to true/s);
    } finally {
      await docker.dispose();
    }
  });
});
