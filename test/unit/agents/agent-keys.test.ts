// Keys only where they are needed (issue 43): an agent's try gets a key of the harness's
// (SWECI_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY, one named by --api-key-env) only when its role
// names it AND it calls its model itself: the open network (or no sandbox) without an endpoint.
// Every route (the sandbox, a container, no sandbox) by every network (none: a custom agent with
// no endpoint; gateway: an endpoint; open: sweci.agents.network "open" and no endpoint), with a
// real scripted agent, run by the real driver, that reports a digest of every variable it has.
// Run as root with the default settings.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createDriver } from '../../../src/core/agents/cli-driver';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import { LocalRuntime } from '../../../src/core/runtime/local-runtime';
import { DockerRuntime } from '../../../src/core/runtime/docker/docker-runtime';
import { findBubblewrap } from '../../../src/core/runtime/sandbox';
import type { Runtime } from '../../../src/core/runtime/runtime';
import { missingSandbox } from '../helpers/require-sandbox';
import { DEMO_IMAGE, dockerForTests } from '../helpers/docker';

/** The harness's keys, as the CLI gets them from its environment (secretEnvOf). */
const HARNESS_KEYS = {
  SWECI_API_KEY: `sk-sweci-${process.pid}-endpoint`,
  ANTHROPIC_API_KEY: `sk-ant-${process.pid}-anthropic`,
  OPENAI_API_KEY: `sk-oai-${process.pid}-openai`,
  ACME_KEY: `sk-acme-${process.pid}-named`,
};
/** The one key the role names (sweci.<role>.apiKeys). */
const NAMED = 'ACME_KEY';

/** Prints, for every variable, its name and a digest of its value: the log masks the values themselves. */
const DUMP = [
  'import hashlib, json, os',
  "print('ENVDUMP ' + json.dumps({k: hashlib.sha256(v.encode()).hexdigest() for k, v in os.environ.items()}), flush=True)",
].join('\n');

const digest = (v: string) => createHash('sha256').update(v).digest('hex');

type Network = 'none' | 'gateway' | 'open';
type Route = 'sandbox' | 'docker' | 'off';

let tmp: string;
let n = 0;

/** One try on `route` with `network`: the harness keys whose value reached the agent. */
async function keysSeen(route: Route, network: Network, runtime: Runtime): Promise<string[]> {
  const app = path.join(tmp, `app-${++n}`);
  await fs.mkdir(app, { recursive: true });
  await fs.writeFile(path.join(app, 'dump.py'), DUMP + '\n');
  const settings: AgentSettings = {
    kind: 'custom',
    command: 'python3 dump.py',
    promptVia: 'stdin',
    timeoutSec: 60,
    maxTries: 1,
    apiKeys: [NAMED],
    ...(route === 'docker' ? { runIn: 'container' as const } : {}),
    // Never called: the agent only reports its environment.
    ...(network === 'gateway' ? { baseUrl: 'http://127.0.0.1:9/v1', baseUrlFrom: 'agents.baseUrl' } : {}),
  };
  const access = { ...DEFAULT_MODEL_ACCESS, network: network === 'open' ? ('open' as const) : ('model-only' as const) };
  const driver = createDriver(settings, {
    host: route === 'docker' ? new LocalRuntime() : runtime,
    ...(route === 'docker' ? { container: runtime } : {}),
    model: access,
  });
  const logFile = path.join(tmp, `try-${n}.log`);
  const result = await driver.run({
    role: 'programmer',
    prompt: 'dump',
    promptFile: path.join(tmp, `prompt-${n}.md`),
    cwd: app,
    env: {},
    keys: { ...HARNESS_KEYS },
    timeoutMs: 60_000,
    logFile,
    ...(route === 'off' ? {} : { confine: { hide: [] } }),
  });
  const log = await fs.readFile(logFile, 'utf8');
  assert.equal(result.exitCode, 0, log);
  const line = log.split('\n').find((l) => l.startsWith('ENVDUMP '));
  assert.ok(line, log);
  const seen = JSON.parse(line.slice('ENVDUMP '.length)) as Record<string, string>;
  const values = new Set(Object.values(seen));
  return Object.entries(HARNESS_KEYS)
    .filter(([, value]) => values.has(digest(value)))
    .map(([name]) => name);
}

/** What the rule gives: the named key, and only where the agent calls its model itself. */
const expected = (route: Route, network: Network): string[] => (network !== 'gateway' && (network === 'open' || route === 'off') ? [NAMED] : []);

describe('keys only where they are needed', () => {
  before(async () => {
    tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-agent-keys-')));
  });
  after(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  for (const network of ['none', 'gateway', 'open'] as const) {
    test(`sandbox, ${network}`, async (t) => {
      const bwrap = await findBubblewrap();
      if (!bwrap) return missingSandbox(t);
      assert.deepEqual(await keysSeen('sandbox', network, new LocalRuntime({ bwrap })), expected('sandbox', network));
    });
    test(`no sandbox, ${network}`, async () => {
      assert.deepEqual(await keysSeen('off', network, new LocalRuntime()), expected('off', network));
    });
    test(`container, ${network}`, async () => {
      const conn = await dockerForTests();
      const runtime = new DockerRuntime({ connection: conn, image: DEMO_IMAGE, purpose: 'agent', network: true, prestart: false });
      try {
        assert.deepEqual(await keysSeen('docker', network, runtime), expected('docker', network));
      } finally {
        await runtime.dispose();
      }
    });
  }
});
