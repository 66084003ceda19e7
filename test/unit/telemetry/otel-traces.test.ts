// OpenTelemetry traces of a real run (issue 49): a two-iteration loop through the model gateway,
// with scripted agents (a real program the real driver runs, calling the project's scripted model
// server), exported by OpenTelemetry's own SDK to an OTLP receiver on this machine's loopback.
// The receiver decodes what arrives (OTLP/JSON; OTLP/protobuf walked field by field), so the
// tree, the attributes and what is left out are read from the wire, not from the SDK's memory.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AgentSettings } from '../../../src/core/agents/agent-driver';
import { createDriver } from '../../../src/core/agents/cli-driver';
import { DEFAULT_MODEL_ACCESS } from '../../../src/core/agents/model-access';
import { readGatewayCalls } from '../../../src/core/records/gateway-call';
import { readIterationRecords } from '../../../src/core/loop/iteration-record';
import type { RoleSetup } from '../../../src/core/loop/loop-types';
import { startRun } from '../../../src/core/loop/run-loop';
import { ARCHIVE } from '../../../src/core/loop/run-store';
import { readTelemetrySettings } from '../../../src/core/telemetry/telemetry-settings';
import { activeTracing, setTelemetryWarning, startTracing, stopTracing } from '../../../src/core/telemetry/tracing';
import { UserError } from '../../../src/core/util/errors';
import { taskFolder } from '../../../src/core/workspace/task-folder';
import { chatCompletionsAdapter } from '../../../scripts/stand-in-model/chat-completions';
import { promptText, type Conversation, type Reply } from '../../../scripts/stand-in-model/conversation';
import { startModelServer, type ModelServer } from '../../../scripts/stand-in-model/model-server';
import { SAMPLE_REQUIREMENT as REQUIREMENT } from '../../../scripts/stand-in-model/sample-requirement';
import { missingSandbox } from '../helpers/require-sandbox';
import { AGENTS_DIR, DemoWorld, PYTHON, SANDBOX, loopOptions, runtime } from '../loop/demo-fixture';
import { decodeProtobufSpans, type WireSpan } from './otlp-protobuf';

const KEY = 'sk-sweci-otel-loop-0123456789';
const ANSWER = 'note-from-the-model';

function brain(c: Conversation): Reply {
  const prompt = promptText(c);
  const role = prompt.includes('# Role: Architect') ? 'architect' : 'programmer';
  return {
    actions: [{ kind: 'text', text: role === 'architect' ? REQUIREMENT : `${ANSWER} ${prompt.length}` }],
    usage: { input: 1000 + prompt.length, cachedInput: 100, output: 50 },
    label: role,
  };
}

function agent(server: ModelServer): RoleSetup {
  const settings: AgentSettings = {
    kind: 'custom',
    command: `${PYTHON} ${JSON.stringify(path.join(AGENTS_DIR, 'model-client.py'))}`,
    promptVia: 'stdin',
    baseUrl: `${server.origin}/v1`,
    model: 'm',
    timeoutSec: 60,
    maxTries: 1,
    env: { SWECI_TEST_KEY_SHA256: createHash('sha256').update(KEY).digest('hex'), SWECI_TEST_DIRECT_PORT: String(server.port) },
  };
  return { settings, driver: createDriver(settings, { host: runtime, model: DEFAULT_MODEL_ACCESS }), secretEnv: { SWECI_API_KEY: KEY } };
}

interface Received {
  contentType: string;
  body: Buffer;
}

/** An OTLP/HTTP receiver: it keeps every request to /v1/traces and answers 200. */
async function startReceiver(): Promise<{ url: string; requests: Received[]; close(): Promise<void> }> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') requests.push({ contentType: String(req.headers['content-type']), body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': String(req.headers['content-type'] ?? 'application/json') });
      res.end(req.headers['content-type'] === 'application/json' ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type OtlpAnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: OtlpAnyValue[] } };

function valueOf(v: OtlpAnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

/** Every span of OTLP/JSON export requests, with its attributes as plain values. */
function jsonSpans(requests: readonly Received[]): WireSpan[] {
  const out: WireSpan[] = [];
  for (const r of requests) {
    assert.match(r.contentType, /application\/json/);
    const body = JSON.parse(r.body.toString('utf8')) as {
      resourceSpans: {
        resource?: { attributes?: { key: string; value: OtlpAnyValue }[] };
        scopeSpans: {
          spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: { key: string; value: OtlpAnyValue }[] }[];
        }[];
      }[];
    };
    for (const rs of body.resourceSpans) {
      const resource = Object.fromEntries((rs.resource?.attributes ?? []).map((a) => [a.key, valueOf(a.value)]));
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans)
          out.push({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            name: s.name,
            attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
            resource,
          });
    }
  }
  return out;
}

let world: DemoWorld;
let server: ModelServer;

/** A two-iteration run with tracing to `url`; the spans that arrived and the run's records. */
async function tracedRun(name: string, settings: { url: string; protocol: 'http/json' | 'http/protobuf'; captureContent: boolean }) {
  const tracing = startTracing({ tracesUrl: settings.url, protocol: settings.protocol, captureContent: settings.captureContent, serviceName: 'sweci-test' });
  assert.ok(tracing, 'tracing starts when an endpoint is set');
  const task = await world.task(name);
  const roles = { architect: agent(server), programmer: agent(server) };
  const result = await startRun({ ...loopOptions(task, 'r', roles), maxIterations: 2 });
  await stopTracing(60_000);
  return { task, result };
}

describe('OpenTelemetry traces of a run through the gateway', { timeout: 10 * 60_000 }, () => {
  before(async () => {
    world = await DemoWorld.create('otel');
    server = await startModelServer({ brain, adapters: [chatCompletionsAdapter], requireKey: KEY });
  });
  after(async () => {
    await server?.close();
    await world?.dispose();
  });

  test('experiment-less run: task → iteration → agent try → model call, pytest with its gap; tokens are the calls records’; no content, key or token', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const receiver = await startReceiver();
    try {
      const { task, result } = await tracedRun('json', { url: receiver.url, protocol: 'http/json', captureContent: false });
      assert.equal(result.reason, 'max-iterations');
      assert.equal(result.iterations, 2);
      const spans = jsonSpans(receiver.requests);
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const children = (s: WireSpan) => spans.filter((c) => c.parentSpanId === s.spanId);
      assert.equal(new Set(spans.map((s) => s.traceId)).size, 1, 'one trace for the run');
      assert.equal(spans[0].resource['service.name'], 'sweci-test');

      const roots = spans.filter((s) => !s.parentSpanId);
      assert.equal(roots.length, 1, 'one root');
      const taskSpan = roots[0];
      assert.match(taskSpan.name, /^sweci\.task /);
      assert.equal(taskSpan.attributes['sweci.run'], 'r');
      assert.equal(taskSpan.attributes['sweci.stop_reason'], 'max-iterations');

      const records = await readIterationRecords(taskFolder(task.taskDir).run('r').iterationsFile);
      const iterations = children(taskSpan);
      // (The base's pytest run was kept from the checkout: no iteration 0 runs here.)
      assert.deepEqual(iterations.map((s) => s.attributes['sweci.iteration']).sort(), [1, 2], 'two iterations');
      for (const it of iterations) {
        const n = it.attributes['sweci.iteration'] as number;
        const record = records[n];
        assert.equal(it.attributes['sweci.gap'], record.gap, `iteration ${n}'s gap`);
        const pytest = children(it).filter((s) => s.name === 'sweci.pytest');
        assert.equal(pytest.length, 1, `iteration ${n} ran pytest once`);
        assert.equal(pytest[0].attributes['sweci.gap'], record.gap, `pytest's gap in iteration ${n}`);
        const tries = children(it).filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent');
        assert.deepEqual(tries.map((s) => s.attributes['sweci.role']).sort(), ['architect', 'programmer']);
        for (const tr of tries) {
          const role = tr.attributes['sweci.role'] as 'architect' | 'programmer';
          assert.equal(tr.attributes['sweci.try'], 1);
          assert.ok(typeof tr.attributes['gen_ai.agent.name'] === 'string' && tr.attributes['gen_ai.agent.name'] !== '', 'the agent is named');
          const calls = await readGatewayCalls(path.join(taskFolder(task.taskDir).run('r').iterationDir(n), ARCHIVE.agentCalls(role, 1)));
          const model = children(tr);
          assert.equal(model.length, calls.length, `${role} ${n}: one span per recorded call`);
          assert.ok(calls.length > 0);
          for (const call of calls) {
            const span = model.find((s) => s.attributes['sweci.call'] === call.call);
            assert.ok(span, `call ${call.call} has its span`);
            assert.equal(span.name, `chat ${call.model}`);
            assert.equal(span.attributes['gen_ai.operation.name'], 'chat');
            assert.equal(span.attributes['gen_ai.provider.name'], 'openai');
            assert.equal(span.attributes['gen_ai.request.model'], call.model);
            assert.equal(span.attributes['gen_ai.usage.input_tokens'], call.usage.input, 'input tokens are the record’s');
            assert.equal(span.attributes['gen_ai.usage.output_tokens'], call.usage.output, 'output tokens are the record’s');
            assert.equal(span.attributes['gen_ai.usage.cache_read.input_tokens'], call.usage.cached, 'cache reads are the record’s');
            assert.equal(span.attributes['gen_ai.usage.cache_read.input_tokens'], 100);
            if (call.response?.stopReason) assert.deepEqual(span.attributes['gen_ai.response.finish_reasons'], [call.response.stopReason]);
            assert.equal(span.attributes['gen_ai.input.messages'], undefined, 'no content without the opt-in');
            assert.equal(span.attributes['gen_ai.output.messages'], undefined, 'no content without the opt-in');
          }
        }
      }
      assert.ok(
        spans.every((s) => !s.parentSpanId || byId.has(s.parentSpanId)),
        'every parent arrived',
      );
      const wire = receiver.requests.map((r) => r.body.toString('utf8')).join('\n');
      assert.ok(!wire.includes(KEY), 'the real key never leaves');
      assert.doesNotMatch(wire, /sweci-try-/, 'no try token');
      assert.ok(!wire.includes(ANSWER), "no answer's text");
      assert.ok(!wire.includes('# Role:'), 'no prompt');
    } finally {
      await receiver.close();
    }
  });

  test('with captureContent, over OTLP/protobuf: the messages are on the model-call spans, masked; still no key or token', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const receiver = await startReceiver();
    try {
      await tracedRun('proto', { url: receiver.url, protocol: 'http/protobuf', captureContent: true });
      assert.ok(receiver.requests.length > 0);
      for (const r of receiver.requests) assert.equal(r.contentType, 'application/x-protobuf');
      const spans = receiver.requests.flatMap((r) => decodeProtobufSpans(r.body));
      const calls = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
      assert.equal(calls.length, 4, 'two calls in each of two iterations');
      const tries = new Map(spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent').map((s) => [s.spanId, s]));
      for (const c of calls) {
        assert.ok(tries.has(c.parentSpanId ?? ''), 'a model call is under its try');
        assert.match(String(c.attributes['gen_ai.input.messages']), /# Role: (Architect|Programmer)/, 'the prompt is there');
        assert.equal(typeof c.attributes['gen_ai.usage.input_tokens'], 'number');
      }
      assert.ok(
        calls.some((c) => String(c.attributes['gen_ai.output.messages']).includes(ANSWER)),
        "the Programmer's answer is there",
      );
      const wire = Buffer.concat(receiver.requests.map((r) => r.body)).toString('latin1');
      assert.ok(!wire.includes(KEY), 'the real key never leaves');
      assert.doesNotMatch(wire, /sweci-try-/, 'no try token');
    } finally {
      await receiver.close();
    }
  });

  test('a dead endpoint: the run completes as without telemetry, with one warning', async (t) => {
    if (!SANDBOX) return missingSandbox(t);
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const warnings: string[] = [];
    setTelemetryWarning((m) => warnings.push(m));
    const { result } = await tracedRun('dead', { url, protocol: 'http/json', captureContent: false });
    assert.equal(result.reason, 'max-iterations');
    assert.equal(result.iterations, 2);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /OpenTelemetry: spans could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
  });

  // The exporter retries a refused export until the exit's bound; a run's end must not wait for it.
  // Bounded at 600 s here: waiting for the retries would fail the test's own 120 s timeout.
  test("a run's end does not wait for a collector that refuses the connection; the warning says so", { timeout: 120_000 }, async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const warnings: string[] = [];
    setTelemetryWarning((m) => warnings.push(m));
    startTracing({ tracesUrl: url, protocol: 'http/protobuf', captureContent: false, serviceName: 'sweci-dead' })!.tracer.startSpan('the last span').end();
    await stopTracing(600_000);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /could not be sent to .* \(connection refused\)/);
  });
});

describe('telemetry settings', () => {
  const none = () => undefined;
  test('off unless an endpoint is set', () => {
    assert.equal(readTelemetrySettings(none, {}).tracesUrl, undefined);
    assert.equal(startTracing(readTelemetrySettings(none, {})), undefined);
  });
  test('the setting is a base URL, as OTEL_EXPORTER_OTLP_ENDPOINT; the traces variable is the whole URL', () => {
    assert.equal(
      readTelemetrySettings((k) => (k === 'telemetry.otlpEndpoint' ? 'http://localhost:4318/' : undefined), {}).tracesUrl,
      'http://localhost:4318/v1/traces',
    );
    assert.equal(readTelemetrySettings(none, { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example:4318' }).tracesUrl, 'https://otel.example:4318/v1/traces');
    const s = readTelemetrySettings(none, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'my-evals',
    });
    assert.deepEqual(s, { tracesUrl: 'http://b:4318/custom', protocol: 'http/json', captureContent: false, serviceName: 'my-evals' });
  });
  test("sweci run's --otlp-endpoint goes through the same parser: a bad one is refused naming the flag, before anything is written", () => {
    const cli = path.resolve(__dirname, '../../../src/cli/main.js');
    const experiment = path.join(os.tmpdir(), `sweci-otlp-flag-${process.pid}`);
    const r = spawnSync(
      process.execPath,
      [cli, 'run', '--otlp-endpoint', 'not a url', '--dataset', experiment, '--experiment', experiment, '--runtime', 'local'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /--otlp-endpoint must be a URL such as http:\/\/localhost:4318, not "not a url"/);
    assert.equal(existsSync(experiment), false);
  });
  test('an endpoint that is not a URL is refused, naming where it came from', () => {
    assert.throws(
      () => readTelemetrySettings((k) => (k === 'telemetry.otlpEndpoint' ? 'localhost:4318' : undefined), {}),
      (e: unknown) => e instanceof UserError && /sweci\.telemetry\.otlpEndpoint must be an http:\/\/ or https:\/\/ URL/.test(e.message),
    );
    assert.throws(
      () => readTelemetrySettings(none, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }),
      (e: unknown) => e instanceof UserError && /OTEL_EXPORTER_OTLP_ENDPOINT must be a URL/.test(e.message),
    );
    assert.throws(
      () => readTelemetrySettings(none, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
      (e: unknown) => e instanceof UserError && /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/.test(e.message),
    );
  });
});

describe("the process's tracing follows the settings", () => {
  const on = (tracesUrl: string) => ({ tracesUrl, protocol: 'http/protobuf' as const, captureContent: false, serviceName: 'sweci' });
  after(() => stopTracing(100));

  test('the same settings share one tracing; another endpoint replaces it; none stops it', () => {
    const a = startTracing(on('http://127.0.0.1:9/v1/traces'));
    assert.ok(a);
    assert.equal(startTracing(on('http://127.0.0.1:9/v1/traces')), a, "a batch's runs share it");
    assert.equal(activeTracing(), a);
    const b = startTracing(on('http://127.0.0.1:10/v1/traces'));
    assert.ok(b && b !== a, 'another endpoint: a new tracing');
    assert.equal(activeTracing(), b);
    assert.equal(startTracing({ ...on(''), tracesUrl: undefined }), undefined);
    assert.equal(activeTracing(), undefined, 'no endpoint: stopped');
  });
});
