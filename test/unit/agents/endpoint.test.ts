// One endpoint for every preset: the URL each protocol's clients expect, what each preset writes
// into its agent's home, the check before a run, and the CLI's own verdict on a try.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AGENT_PRESETS } from '../../../src/core/agents/agent-driver';
import { readAgentSettings } from '../../../src/core/agents/agent-settings';
import { assertEndpointsAnswer, checkEndpoint, missingModel } from '../../../src/core/agents/endpoint/endpoint-check';
import { parseBaseUrl, resolveEndpoint, urlFor } from '../../../src/core/agents/endpoint/endpoint';
import { presetPermissions, presetSetup } from '../../../src/core/agents/preset-setup';
import { summarizeRole } from '../../../src/core/agents/agent-summary';
import { reportedError } from '../../../src/core/agents/agent-output';
import { jsonValues } from '../../../src/core/agents/reading/json-scan';
import { settingName } from '../../../src/core/util/setting-reader';
import { UserError } from '../../../src/core/util/errors';
import { settingOf } from '../../../src/extension/error-actions';
import { repoRoot } from '../helpers/repo-root';
import { demoDatasetFixture } from '../../harness/demo-dataset-fixture';

describe('the endpoint URL as each protocol wants it', () => {
  test('OpenAI-style URLs end in /v1; Anthropic and Gemini clients add their own version', () => {
    for (const base of ['http://h:8000', 'http://h:8000/v1', 'http://h:8000/v1/']) {
      assert.equal(urlFor('chat-completions', base), 'http://h:8000/v1', base);
      assert.equal(urlFor('openai-responses', base), 'http://h:8000/v1', base);
      assert.equal(urlFor('anthropic-messages', base), 'http://h:8000', base);
      assert.equal(urlFor('gemini', base), 'http://h:8000', base);
    }
    assert.equal(urlFor('chat-completions', 'https://openrouter.ai/api/v1'), 'https://openrouter.ai/api/v1');
    assert.equal(urlFor('anthropic-messages', 'https://openrouter.ai/api/v1'), 'https://openrouter.ai/api');
  });

  test('a bad base URL is refused with the setting named and an example', () => {
    const label = settingName;
    assert.equal(parseBaseUrl(' http://localhost:8000/v1/ ', label, 'agents.baseUrl'), 'http://localhost:8000/v1');
    assert.equal(parseBaseUrl('', label, 'agents.baseUrl'), '');
    for (const bad of ['localhost:8000', 'ftp://h/v1', 'http://h/v1?x=1', 'http://user:pw@h/v1', 'not a url']) {
      assert.throws(
        () => parseBaseUrl(bad, label, 'agents.baseUrl'),
        (e: unknown) => e instanceof UserError && /sweci\.agents\.baseUrl/.test(e.message),
        bad,
      );
    }
  });

  test("a role's own base URL wins over the shared one", () => {
    const settings: Record<string, unknown> = {
      'architect.agent': 'codex',
      'programmer.agent': 'qwen',
      'agents.baseUrl': 'http://shared/v1',
      'programmer.baseUrl': 'http://own/v1',
    };
    const read = (k: string) => settings[k];
    const a = readAgentSettings('architect', read);
    const p = readAgentSettings('programmer', read);
    assert.ok(a.kind === 'preset' && p.kind === 'preset');
    assert.equal(a.baseUrl, 'http://shared/v1');
    assert.equal(p.baseUrl, 'http://own/v1');
  });
});

describe("what each preset writes into its agent's home", () => {
  const e = (preset: (typeof AGENT_PRESETS)[number]) => resolveEndpoint(preset, 'http://127.0.0.1:9/v1', 'sk-secret-value');
  const ctx = { cwd: '/t/app', home: '/t/.sweci/agent-home/programmer', model: 'm-1' };

  test('claude: Anthropic base URL without /v1, the key in its variable; root may skip permissions only when confined', () => {
    const confined = presetSetup('claude-code', { ...ctx, endpoint: e('claude-code'), confined: true });
    assert.equal(confined.env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:9');
    assert.equal(confined.env.ANTHROPIC_API_KEY, 'sk-secret-value');
    assert.equal(confined.env.IS_SANDBOX, '1');
    assert.equal(presetSetup('claude-code', { ...ctx, endpoint: e('claude-code'), confined: false }).env.IS_SANDBOX, undefined);
  });

  test('codex: a provider in config.toml (it ignores OPENAI_BASE_URL), the key by variable name, retries bounded', () => {
    const s = presetSetup('codex', { ...ctx, endpoint: e('codex'), confined: true });
    const toml = s.files.find((f) => f.path === '.codex/config.toml')?.content ?? '';
    assert.match(toml, /^model_provider = "sweci"$/m);
    assert.match(
      toml,
      /^\[model_providers\.sweci\]\nname = "SWE-CI endpoint"\nbase_url = "http:\/\/127\.0\.0\.1:9\/v1"\nenv_key = "SWECI_API_KEY"\nwire_api = "responses"$/m,
    );
    assert.match(toml, /^unbounded_connection_retries = false$/m);
    assert.ok(!toml.includes('sk-secret-value'), 'the key is not written to disk');
    assert.equal(s.env.SWECI_API_KEY, 'sk-secret-value');
    assert.equal(s.env.CODEX_HOME, '/t/.sweci/agent-home/programmer/.codex');
  });

  test('gemini: trusts the folder headless; Gemini base URL and the API-key auth type', () => {
    assert.equal(presetSetup('gemini', { ...ctx, confined: false }).env.GEMINI_CLI_TRUST_WORKSPACE, 'true', 'also without an endpoint');
    const s = presetSetup('gemini', { ...ctx, endpoint: e('gemini'), confined: true });
    assert.equal(s.env.GOOGLE_GEMINI_BASE_URL, 'http://127.0.0.1:9');
    const settings = JSON.parse(s.files.find((f) => f.path === '.gemini/settings.json')?.content ?? '{}') as { security: { auth: { selectedType: string } } };
    assert.equal(settings.security.auth.selectedType, 'gemini-api-key');
  });

  test('qwen: Chat Completions through its OpenAI variables, with the model', () => {
    const s = presetSetup('qwen', { ...ctx, endpoint: e('qwen'), confined: true });
    assert.deepEqual([s.env.OPENAI_BASE_URL, s.env.OPENAI_API_KEY, s.env.OPENAI_MODEL], ['http://127.0.0.1:9/v1', 'sk-secret-value', 'm-1']);
  });

  test('qwen and gemini start once: the variable their own second start sets, and the heap it would give itself (half the memory)', () => {
    const half = Math.floor(os.totalmem() / (1024 * 1024) / 2);
    for (const [preset, variable] of [
      ['qwen', 'QWEN_CODE_NO_RELAUNCH'],
      ['gemini', 'GEMINI_CLI_NO_RELAUNCH'],
    ] as const)
      for (const endpoint of [e(preset), undefined]) {
        const env = presetSetup(preset, { ...ctx, ...(endpoint ? { endpoint } : {}), confined: true }).env;
        assert.equal(env[variable], 'true', `${preset}: ${variable}`);
        assert.equal(env.NODE_OPTIONS, `--max-old-space-size=${half}`, `${preset}: its heap`);
      }
  });

  test('opencode: told its folder; a provider in opencode.json naming the key variable; shell denied unless confined', () => {
    const s = presetSetup('opencode', { ...ctx, endpoint: e('opencode'), confined: false });
    assert.equal(s.env.PWD, '/t/app');
    const file = s.files.find((f) => f.path === '.config/opencode/opencode.json')?.content ?? '';
    assert.ok(!file.includes('sk-secret-value'), 'the key is not written to disk');
    const config = JSON.parse(file) as {
      provider: Record<string, { options: Record<string, string>; models: object }>;
      model: string;
      permission: Record<string, string>;
    };
    assert.deepEqual(config.provider.sweci.options, { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:SWECI_API_KEY}' });
    assert.deepEqual(config.provider.sweci.models, { 'm-1': {} });
    assert.equal(config.model, 'sweci/m-1');
    assert.equal(config.permission.bash, 'deny');
    const confined = JSON.parse(presetSetup('opencode', { ...ctx, confined: true }).files[0].content) as { permission: Record<string, string> };
    assert.equal(confined.permission.bash, 'allow');
  });

  test('without an endpoint nothing of the endpoint is written; every preset says what it may do', () => {
    for (const p of AGENT_PRESETS) {
      const s = presetSetup(p, { ...ctx, confined: true });
      for (const v of ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL', 'SWECI_API_KEY', 'OPENAI_API_BASE'])
        assert.equal(s.env[v], undefined, `${p}: ${v}`);
      assert.equal(presetPermissions(p, true), 'every action accepted (confined)');
      assert.match(presetPermissions(p, false), /not confined/);
    }
  });
});

describe('the endpoint check before a run', () => {
  let server: http.Server;
  let origin: string;
  let closed: string;
  before(async () => {
    server = http.createServer((req, res) => {
      const key = req.headers.authorization ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key'];
      const good = key === 'Bearer good' || key === 'good';
      if (req.url?.startsWith('/nolist')) res.writeHead(404).end();
      else res.writeHead(good ? 200 : 401, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((r) => probe.close(() => r()));
  });
  after(() => server.close());

  test('each protocol asks for its model list with its own key header', async () => {
    for (const preset of ['claude-code', 'codex', 'gemini', 'qwen'] as const) {
      assert.equal((await checkEndpoint(resolveEndpoint(preset, `${origin}/v1`, 'good'))).verdict, 'ok', preset);
      const refused = await checkEndpoint(resolveEndpoint(preset, `${origin}/v1`, 'bad'));
      assert.equal(refused.verdict, 'refused', preset);
      assert.equal(refused.status, 401);
    }
    assert.equal((await checkEndpoint(resolveEndpoint('qwen', `${origin}/nolist/v1`, 'good'))).verdict, 'answered');
    const down = await checkEndpoint(resolveEndpoint('qwen', `${closed}/v1`, 'good'));
    assert.equal(down.verdict, 'unreachable');
    assert.match(down.detail, /ECONNREFUSED/);
  });

  test('an unreachable or refusing endpoint stops the run with the URL and the status; presets without one are not asked', async () => {
    const roles = (url: string) => ({
      architect: { kind: 'preset' as const, preset: 'qwen' as const, baseUrl: url },
      programmer: { kind: 'preset' as const, preset: 'qwen' as const, baseUrl: url },
    });
    await assert.rejects(assertEndpointsAnswer(roles(`${closed}/v1`), { SWECI_API_KEY: 'good' }), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, new RegExp(`architect and programmer .*nothing answered at ${closed}/v1/models \\(ECONNREFUSED\\).*sweci\\.agents\\.baseUrl`));
      return true;
    });
    await assert.rejects(assertEndpointsAnswer(roles(`${origin}/v1`), { SWECI_API_KEY: 'bad' }), /answered HTTP 401: the key was refused/);
    await assert.rejects(assertEndpointsAnswer(roles(`${origin}/v1`), {}), /HTTP 401: no key is stored/);
    assert.equal((await assertEndpointsAnswer(roles(`${origin}/v1`), { SWECI_API_KEY: 'good' })).length, 1, 'one request for both roles');
    assert.deepEqual(await assertEndpointsAnswer({ architect: { kind: 'preset', preset: 'qwen' } }, {}), []);
  });

  test('the error names the setting the dead URL was read from: the shared one unless the role has its own', async () => {
    const refusal = async (values: Record<string, unknown>): Promise<UserError> => {
      const read = (k: string) => values[k];
      const roles = { architect: readAgentSettings('architect', read), programmer: readAgentSettings('programmer', read) };
      const err = await assertEndpointsAnswer(roles, { SWECI_API_KEY: 'good' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof UserError, String(err));
      return err;
    };
    // qwen and claude-code read one shared URL but speak two protocols: two endpoints, one role each.
    const shared = await refusal({ 'architect.agent': 'qwen', 'programmer.agent': 'claude-code', 'agents.baseUrl': `${closed}/v1` });
    assert.equal(shared.setting, 'agents.baseUrl');
    assert.match(shared.message, /model endpoint of the architect .*fix sweci\.agents\.baseUrl\. Nothing was run\./);
    assert.equal(settingOf(shared), 'sweci.agents.baseUrl', 'Open Settings opens the shared setting');
    // The role's own URL is the one at fault.
    const own = await refusal({ 'architect.agent': 'qwen', 'programmer.agent': 'qwen', 'agents.baseUrl': `${origin}/v1`, 'architect.baseUrl': `${closed}/v1` });
    assert.equal(own.setting, 'architect.baseUrl');
    assert.match(own.message, /model endpoint of the architect .*fix sweci\.architect\.baseUrl\./);
    // One URL read from both: the role's own setting first, the shared one named too.
    const both = await refusal({
      'architect.agent': 'qwen',
      'programmer.agent': 'qwen',
      'agents.baseUrl': `${closed}/v1`,
      'programmer.baseUrl': `${closed}/v1`,
    });
    assert.equal(both.setting, 'programmer.baseUrl');
    assert.match(both.message, /fix sweci\.programmer\.baseUrl or sweci\.agents\.baseUrl\./);
  });

  test('a custom agent with a base URL gets the same check as a preset; without one it is not asked', async () => {
    const custom = (baseUrl?: string) => ({ kind: 'custom' as const, command: 'my-agent', ...(baseUrl ? { baseUrl, baseUrlFrom: 'agents.baseUrl' } : {}) });
    await assert.rejects(assertEndpointsAnswer({ architect: custom(`${closed}/v1`), programmer: custom(`${closed}/v1`) }, {}), (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, new RegExp(`architect and programmer \\(OpenAI Chat Completions\\) cannot be used: nothing answered at ${closed}/v1/models`));
      assert.equal(e.setting, 'agents.baseUrl');
      return true;
    });
    assert.equal((await assertEndpointsAnswer({ architect: custom(`${origin}/v1`) }, { SWECI_API_KEY: 'good' }))[0].verdict, 'ok');
    assert.deepEqual(await assertEndpointsAnswer({ architect: custom(), programmer: custom() }, {}), []);
  });

  test('sweci run with an unreachable --base-url stops at once, naming the URL, with nothing checked out', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'sweci-endpoint-'));
    try {
      const experiment = path.join(tmp, 'exp');
      const demo = await demoDatasetFixture(path.join(tmp, 'dataset'));
      const run = (more: string[], env: NodeJS.ProcessEnv) =>
        spawnSync(
          process.execPath,
          [
            path.join(repoRoot, 'out', 'src', 'cli', 'main.js'),
            'run',
            '--dataset',
            demo.datasetDir,
            '--experiment',
            experiment,
            '--architect',
            'qwen',
            '--programmer',
            'qwen',
            ...more,
          ],
          { encoding: 'utf8', env },
        );
      const r = run(['--base-url', `${closed}/v1`], { ...process.env, SWECI_API_KEY: 'good' });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr, new RegExp(`nothing answered at ${closed}/v1/models`));
      assert.equal(existsSync(experiment), false, 'nothing was checked out');
      const unset = run(['--base-url', `${origin}/v1`, '--api-key-env', 'SWECI_NOT_SET_ANYWHERE'], process.env);
      assert.match(unset.stderr, /--api-key-env SWECI_NOT_SET_ANYWHERE: SWECI_NOT_SET_ANYWHERE is not set in this environment/);
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });
});

describe("a CLI's own verdict on its try (exit 0 is no proof of work)", () => {
  test('Claude Code and Qwen Code: is_error, a failing subtype, an API error as the answer', () => {
    assert.match(
      reportedError('claude-code', JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: 'API Error: 500 boom' }), '') ?? '',
      /API Error: 500 boom/,
    );
    assert.match(reportedError('claude-code', JSON.stringify({ type: 'result', subtype: 'error_max_turns', is_error: false }), '') ?? '', /error_max_turns/);
    assert.match(
      reportedError('qwen', JSON.stringify([{ type: 'result', subtype: 'success', is_error: false, result: '[API Error: 401 invalid api key]' }]), '') ?? '',
      /401 invalid api key/,
    );
    assert.equal(reportedError('claude-code', JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'done' }), ''), undefined);
  });

  test('codex: turn.failed is an error; "Reconnecting…" followed by a completed turn is not', () => {
    const line = (v: object) => JSON.stringify(v);
    const reconnected = [line({ type: 'error', message: 'Reconnecting... 1/5' }), line({ type: 'turn.completed', usage: {} })].join('\n');
    assert.equal(reportedError('codex', reconnected, ''), undefined);
    const failed = [
      line({ type: 'error', message: 'Reconnecting... 5/5' }),
      line({ type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } }),
    ].join('\n');
    assert.match(reportedError('codex', failed, '') ?? '', /the turn failed: unexpected status 401/);
  });

  test('gemini (its error object on stderr) and opencode (an error event)', () => {
    assert.match(
      reportedError('gemini', '', JSON.stringify({ session_id: 's', error: { type: 'Error', message: 'Internal server error', code: 500 } })) ?? '',
      /Internal server error/,
    );
    assert.match(
      reportedError('opencode', JSON.stringify({ type: 'error', error: { name: 'APIError', data: { message: 'Cannot connect to API' } } }), '') ?? '',
      /Cannot connect to API/,
    );
  });
});

describe('the verdict read from the stream-json event streams (the presets print them since the transcripts)', () => {
  const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const geminiTool = (status: 'success' | 'error') => [
    { type: 'init', timestamp: '2026-01-01T00:00:00.000Z', session_id: 's', model: 'gemini-2.5-pro' },
    { type: 'message', role: 'user', content: 'go' },
    { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 't1', parameters: { command: 'false' } },
    status === 'error'
      ? { type: 'tool_result', tool_id: 't1', status, error: { type: 'TOOL_EXECUTION_ERROR', message: 'Command exited with code 1' } }
      : { type: 'tool_result', tool_id: 't1', status, output: 'ok' },
  ];
  const stats = { total_tokens: 10, input_tokens: 8, output_tokens: 2, cached: 0, input: 8, duration_ms: 5, tool_calls: 1, models: {} };

  test("gemini: a tool that failed and a warning are the model's to handle, not the CLI's verdict", () => {
    const out = lines(
      ...geminiTool('error'),
      { type: 'error', severity: 'warning', message: 'Loop detected, stopping' },
      { type: 'message', role: 'assistant', content: 'Done.', delta: true },
      { type: 'result', status: 'success', stats },
    );
    assert.equal(reportedError('gemini', out, ''), undefined);
  });

  test('gemini: a result with status "error" is, with its error or the last error event', () => {
    const failed = lines(...geminiTool('success'), { type: 'result', status: 'error', error: { type: 'Error', message: '[API Error: 500 boom]' }, stats });
    assert.match(reportedError('gemini', failed, '') ?? '', /the CLI reported an error: \[API Error: 500 boom\]/);
    const invalid = lines(
      ...geminiTool('success'),
      { type: 'error', severity: 'error', message: 'Model stream ended with an invalid chunk' },
      {
        type: 'result',
        status: 'error',
        stats,
      },
    );
    assert.match(reportedError('gemini', invalid, '') ?? '', /invalid chunk/);
  });

  test('Claude Code and Qwen Code: the result event that ends the stream', () => {
    const turn = {
      type: 'assistant',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 3, output_tokens: 1 } },
    };
    const init = { type: 'system', subtype: 'init', tools: ['Bash'], model: 'm' };
    assert.equal(reportedError('claude-code', lines(init, turn, { type: 'result', subtype: 'success', is_error: false, result: 'hi' }), ''), undefined);
    assert.match(
      reportedError('claude-code', lines(init, turn, { type: 'result', subtype: 'success', is_error: true, result: 'API Error: 529 overloaded' }), '') ?? '',
      /529 overloaded/,
    );
    assert.match(
      reportedError('qwen', lines(init, turn, { type: 'result', subtype: 'success', is_error: false, result: '[API Error: 401 invalid api key]' }), '') ?? '',
      /the model call failed: \[API Error: 401/,
    );
  });
});

describe('opencode with an endpoint and no model is refused before anything runs', () => {
  const opencode = (extra: object = {}) => ({ kind: 'preset' as const, preset: 'opencode' as const, baseUrl: 'http://127.0.0.1:9/v1', ...extra });

  test("the error names the role's model setting (and its flag)", () => {
    const err = missingModel('programmer', opencode());
    assert.ok(err instanceof UserError);
    assert.equal(err.setting, 'programmer.model');
    assert.match(err.message, /opencode as the programmer needs a model when a model endpoint is set \(http:\/\/127\.0\.0\.1:9\/v1\)/);
    assert.match(err.message, /Unexpected server error/);
    assert.match(err.message, /Set sweci\.programmer\.model \(sweci: --programmer-model\)/);
    assert.equal(missingModel('architect', opencode({ model: '  ' }))?.setting, 'architect.model', 'a blank model is no model');
  });

  test('with a model, without an endpoint (its own login), or another preset: nothing is missing', () => {
    assert.equal(missingModel('programmer', opencode({ model: 'coder' })), undefined);
    assert.equal(missingModel('programmer', { kind: 'preset', preset: 'opencode' }), undefined);
    for (const p of AGENT_PRESETS.filter((id) => id !== 'opencode')) {
      assert.equal(missingModel('programmer', { kind: 'preset', preset: p, baseUrl: 'http://127.0.0.1:9/v1' }), undefined, p);
    }
    assert.equal(missingModel('programmer', { kind: 'custom', command: 'agent', baseUrl: 'http://127.0.0.1:9/v1' }), undefined);
  });

  test('the endpoint check (sweci run, the loop) refuses it before asking the endpoint', async () => {
    // Port 9 answers nothing: the model is what is refused, not the endpoint.
    await assert.rejects(
      assertEndpointsAnswer({ architect: opencode({ model: 'coder' }), programmer: opencode() }, {}),
      (e: unknown) => e instanceof UserError && e.setting === 'programmer.model' && /sweci\.programmer\.model/.test(e.message),
    );
  });
});

describe("gemini's error behind its [Routing] line", () => {
  // What Gemini CLI prints on stderr when the endpoint refuses the key (it then exits 145): a
  // routing line, then its JSON output, pretty-printed, holding the error.
  const error = { type: 'Error', message: '[API Error: 401 Unauthorized: invalid api key]', code: 401 };
  const geminiStderr = (...preamble: string[]) =>
    [...preamble, JSON.stringify({ session_id: '6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab', error }, null, 2), ''].join('\n');

  test('the JSON error after a [Routing] line is read', () => {
    const stderr = geminiStderr('[Routing] Selected model gemini-2.5-pro (strategy: default, latency 0ms)');
    assert.match(reportedError('gemini', '', stderr) ?? '', /the CLI reported an error: \[API Error: 401 Unauthorized: invalid api key\]/);
  });

  test('after any leading lines that are not JSON, some of them opening with a bracket', () => {
    const stderr = geminiStderr('Loaded cached credentials.', '[Routing] Selected model gemini-2.5-flash', '[WARN] slow [network]');
    assert.match(reportedError('gemini', '', stderr) ?? '', /401 Unauthorized/);
    assert.deepEqual(jsonValues(stderr), [{ session_id: '6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab', error }]);
  });

  test('a routing line and no JSON is no error', () => {
    assert.equal(reportedError('gemini', '', '[Routing] Selected model gemini-2.5-pro\n'), undefined);
    assert.deepEqual(jsonValues('[Routing] Selected model gemini-2.5-pro\n[Routing] again {x}\n'), []);
  });
});

describe('what the Task view says of each role', () => {
  test('a preset names its endpoint as its protocol sees it, and is restricted when not confined', () => {
    const codex = { kind: 'preset' as const, preset: 'codex' as const, baseUrl: 'http://h:8000', model: 'gpt-5' };
    assert.deepEqual(summarizeRole('programmer', codex, true), {
      role: 'programmer',
      label: 'codex (gpt-5)',
      endpoint: 'http://h:8000/v1 (OpenAI Responses)',
      permissions: 'every action accepted (confined)',
      restricted: false,
    });
    const claude = summarizeRole('architect', { kind: 'preset', preset: 'claude-code' }, false);
    assert.equal(claude.endpoint, "the CLI's own login");
    assert.equal(claude.restricted, true);
    assert.match(claude.permissions, /shell commands are denied/);
    assert.equal(summarizeRole('architect', { kind: 'human' }, false).restricted, false);
  });
});
