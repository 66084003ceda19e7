// Benchmark: a long try's transcript. Builds calls records by code the way Claude Code fills one
// (Anthropic Messages): a 12 KB system prompt, 16 tools, a history that grows by a tool call and
// a result of a few KB each call (every fifth a Write of 2 KB), compacted when it passes ~700 KB
// (as a CLI does near its context limit), a side call (a title) every 25 calls, and the raw answer
// the gateway keeps for replays. Then times readTryTranscript (stream, parse, convert) and
// formatTranscript (text, json), for 100, 250, 500 and 1000 calls: the work must grow with the
// record's size, not with the square of the calls.
//
//   npm run compile && npm run bench:transcript [-- <calls,calls,…>]
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import * as os from 'node:os';
import * as path from 'node:path';
import { ARCHIVE } from '../src/core/loop/run-store';
import { formatGatewayCallLine, type GatewayCall } from '../src/core/records/gateway-call';
import { formatTranscript } from '../src/core/transcript/format-transcript';
import { readTryTranscript } from '../src/core/transcript/read-transcript';

type Json = Record<string, unknown>;

/** A deterministic pseudo-random source, so every run writes the same records. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const words = (rand: () => number, chars: number): string => {
  const vocab = [
    'inventory',
    'low_stock',
    'threshold',
    'assert',
    'def',
    'return',
    'tests/test_inventory.py',
    'FAILED',
    'PASSED',
    'sku',
    'search',
    'item',
    'quantity',
  ];
  let out = '';
  while (out.length < chars) out += (rand() < 0.08 ? '\n' : ' ') + vocab[Math.floor(rand() * vocab.length)];
  return out;
};

const SYSTEM = [{ type: 'text', text: words(random(1), 12_000), cache_control: { type: 'ephemeral' } }];
const TOOLS = Array.from({ length: 16 }, (_, i) => ({
  name: ['Bash', 'Write', 'Edit', 'Read', 'Grep', 'Glob'][i] ?? `Tool${i}`,
  description: words(random(100 + i), 1_000),
  input_schema: { type: 'object', properties: { command: { type: 'string' }, file_path: { type: 'string' }, content: { type: 'string' } } },
}));
const COMPACT_AT = 700_000;

/** Writes a try of `calls` model calls; resolves with the file's size in bytes. */
async function writeRecord(file: string, calls: number): Promise<number> {
  const rand = random(42);
  const out = createWriteStream(file);
  const write = async (call: GatewayCall) => {
    if (!out.write(formatGatewayCallLine(call))) await once(out, 'drain');
  };
  const prompt = { role: 'user', content: [{ type: 'text', text: `# Role: Programmer\n\n${words(rand, 3_000)}` }] };
  let messages: Json[] = [prompt];
  let size = 0;
  for (let n = 1; n <= calls; n++) {
    const base = {
      call: n,
      protocol: 'anthropic-messages' as const,
      kind: 'model' as const,
      method: 'POST',
      path: '/v1/messages',
      model: 'claude-sonnet-4-5',
      stream: true,
    };
    const usage = { input: 20_000 + n * 900, output: 120 + (n % 50), cached: 18_000 + n * 800, reasoning: 0 };
    if (n % 25 === 0) {
      // A side call: a title for the session, no tools.
      const request = { model: 'claude-haiku-4-5', max_tokens: 512, system: 'Write a title.', messages: [{ role: 'user', content: words(rand, 300) }] };
      await write({
        ...base,
        status: 200,
        usage: { input: 300, output: 10, cached: 0, reasoning: 0 },
        ms: 300,
        retries: 0,
        request,
        response: { text: 'A title', toolCalls: [] },
      });
      continue;
    }
    const id = `toolu_${String(n).padStart(6, '0')}`;
    const writing = n % 5 === 0;
    const input = writing
      ? { file_path: `/app/code/src/mod_${n % 7}.py`, content: words(rand, 2_000) }
      : { command: `pytest -q tests/test_inventory.py -k case_${n}`, description: 'run' };
    const text = words(rand, 200);
    const request = { model: 'claude-sonnet-4-5', max_tokens: 32_000, stream: true, system: SYSTEM, tools: TOOLS, messages };
    const raw = {
      status: 200,
      contentType: 'text/event-stream',
      encoding: 'utf8' as const,
      body: `event: message_start\ndata: ${JSON.stringify({ text, input })}\n\n`.repeat(2),
    };
    await write({
      ...base,
      status: 200,
      usage,
      costUsd: 0.003 + n * 1e-5,
      ms: 1_500 + (n % 40) * 50,
      firstByteMs: 400,
      retries: 0,
      request,
      response: { text, toolCalls: [{ id, name: writing ? 'Write' : 'Bash', arguments: JSON.stringify(input) }], stopReason: 'tool_use' },
      raw,
    });
    const result = writing ? `File created successfully at: ${input.file_path}` : words(rand, 1_000 + Math.floor(rand() * 5_000));
    messages = [
      ...messages,
      {
        role: 'assistant',
        content: [
          { type: 'text', text },
          { type: 'tool_use', id, name: writing ? 'Write' : 'Bash', input },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] },
    ];
    size += JSON.stringify(messages[messages.length - 1]).length + JSON.stringify(messages[messages.length - 2]).length;
    if (size > COMPACT_AT) {
      // Near the context limit: the CLI starts over from a summary.
      messages = [{ role: 'user', content: [{ type: 'text', text: `Summary of the conversation so far:\n${words(rand, 4_000)}` }] }];
      size = 0;
    }
  }
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

async function timed<T>(f: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await f();
  return { ms: performance.now() - start, value };
}

async function main(): Promise<void> {
  const sizes = (process.argv[2] ?? '100,250,500,1000').split(',').map(Number);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sweci-transcript-bench-'));
  const rows: { calls: number; mb: number; read: number; text: number; json: number }[] = [];
  try {
    for (const calls of sizes) {
      const file = path.join(dir, ARCHIVE.agentCalls('programmer', 1));
      const bytes = await writeRecord(file, calls);
      const best = { read: Infinity, text: Infinity, json: Infinity };
      for (let run = 0; run < 3; run++) {
        const read = await timed(() => readTryTranscript({ iterDir: dir, role: 'programmer', try: 1, iteration: 1 }));
        const t = read.value;
        if (!t) throw new Error('no transcript');
        if (t.calls.length !== calls) throw new Error(`${t.calls.length} calls read, ${calls} written`);
        const text = await timed(() => formatTranscript(t, 'text'));
        const json = await timed(() => formatTranscript(t, 'json'));
        best.read = Math.min(best.read, read.ms);
        best.text = Math.min(best.text, text.ms);
        best.json = Math.min(best.json, json.ms);
      }
      rows.push({ calls, mb: bytes / 1e6, ...best });
      console.log(
        `${String(calls).padStart(5)} calls  ${(bytes / 1e6).toFixed(1).padStart(7)} MB  read ${best.read.toFixed(0).padStart(6)} ms  text ${best.text.toFixed(0).padStart(5)} ms  json ${best.json.toFixed(0).padStart(5)} ms`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const first = rows[0];
  console.log(`\nscaling against ${first.calls} calls (read + text; the record's size for comparison):`);
  for (const r of rows) {
    const ms = r.read + r.text;
    const perMb = ms / r.mb;
    console.log(
      `${String(r.calls).padStart(5)} calls  time ×${(ms / (first.read + first.text)).toFixed(2).padStart(5)}  size ×${(r.mb / first.mb).toFixed(2).padStart(5)}  ${perMb.toFixed(1)} ms per MB`,
    );
  }
  const at500 = rows.find((r) => r.calls === 500);
  if (at500) console.log(`\n500 calls: ${(at500.read + at500.text).toFixed(0)} ms to read and format as text (${at500.mb.toFixed(0)} MB of record)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
