// Recorded gateway calls built by code, in each wire protocol's own request format, the way the
// CLIs send them: one conversation written once as turns, encoded per protocol, and the calls a
// try of it makes (each request repeating the history so far, as on the wire).
import type { GatewayCall } from '../../../src/core/records/gateway-call';

export type Protocol = GatewayCall['protocol'];
export const PROTOCOLS: readonly Protocol[] = ['anthropic-messages', 'openai-responses', 'chat-completions', 'gemini'];

export interface ToolUse {
  id: string;
  name: string;
  /** JSON arguments, or a custom tool's free text. */
  args: Record<string, unknown> | string;
}

/** What the model answered. */
export interface Answer {
  text?: string;
  reasoning?: string;
  calls?: ToolUse[];
}

export type Turn =
  | { role: 'user'; text: string }
  | ({ role: 'assistant' } & Answer)
  | { role: 'tool'; results: { id: string; name: string; output: string; isError?: boolean }[] };

export interface Conversation {
  system: string;
  tools: { name: string; description: string; custom?: boolean }[];
  turns: Turn[];
}

type Json = Record<string, unknown>;
const argsText = (args: ToolUse['args']): string => (typeof args === 'string' ? args : JSON.stringify(args));

/** Anthropic Messages, as Claude Code sends it: system blocks, cache markers on the last message (they move each call). */
function anthropic(c: Conversation): Json {
  const messages = c.turns.map((t): Json => {
    if (t.role === 'user') return { role: 'user', content: [{ type: 'text', text: t.text }] };
    if (t.role === 'tool')
      return {
        role: 'user',
        content: t.results.map((r) => ({
          type: 'tool_result',
          tool_use_id: r.id,
          content: [{ type: 'text', text: r.output }],
          ...(r.isError ? { is_error: true } : {}),
        })),
      };
    return {
      role: 'assistant',
      content: [
        ...(t.reasoning ? [{ type: 'thinking', thinking: t.reasoning, signature: 'sig' }] : []),
        ...(t.text ? [{ type: 'text', text: t.text }] : []),
        ...(t.calls ?? []).map((u) => ({ type: 'tool_use', id: u.id, name: u.name, input: u.args })),
      ],
    };
  });
  const last = messages[messages.length - 1]?.content as Json[] | undefined;
  if (last?.length) last[last.length - 1] = { ...last[last.length - 1], cache_control: { type: 'ephemeral' } };
  return {
    model: 'claude-sonnet-4-5',
    max_tokens: 32000,
    stream: true,
    system: [{ type: 'text', text: c.system, cache_control: { type: 'ephemeral' } }],
    tools: c.tools.map((t) => ({ name: t.name, description: t.description, input_schema: { type: 'object', properties: {} } })),
    messages,
  };
}

/** OpenAI Responses, as codex sends it: instructions, typed input items, function and custom tools. */
function responses(c: Conversation): Json {
  const input = c.turns.flatMap((t): Json[] => {
    if (t.role === 'user') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: t.text }] }];
    if (t.role === 'tool')
      return t.results.map((r) => ({
        type: c.tools.find((x) => x.name === r.name)?.custom ? 'custom_tool_call_output' : 'function_call_output',
        call_id: r.id,
        output: r.output,
      }));
    return [
      ...(t.reasoning ? [{ type: 'reasoning', summary: [{ type: 'summary_text', text: t.reasoning }], encrypted_content: 'gAAAA' }] : []),
      ...(t.text ? [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t.text }] }] : []),
      ...(t.calls ?? []).map((u) =>
        typeof u.args === 'string'
          ? { type: 'custom_tool_call', call_id: u.id, name: u.name, input: u.args }
          : { type: 'function_call', call_id: u.id, name: u.name, arguments: JSON.stringify(u.args) },
      ),
    ];
  });
  return {
    model: 'gpt-5-codex',
    instructions: c.system,
    input,
    tools: c.tools.map((t) =>
      t.custom
        ? { type: 'custom', name: t.name, description: t.description, format: { type: 'grammar' } }
        : { type: 'function', name: t.name, description: t.description, parameters: {} },
    ),
    stream: true,
    store: false,
  };
}

/** Chat Completions, as opencode and qwen send it: a system message first, tool messages by id. */
function chat(c: Conversation): Json {
  const messages: Json[] = [{ role: 'system', content: c.system }];
  for (const t of c.turns) {
    if (t.role === 'user') messages.push({ role: 'user', content: t.text });
    else if (t.role === 'tool') for (const r of t.results) messages.push({ role: 'tool', tool_call_id: r.id, content: r.output });
    else
      messages.push({
        role: 'assistant',
        content: t.text ?? null,
        ...(t.reasoning ? { reasoning_content: t.reasoning } : {}),
        ...(t.calls?.length
          ? { tool_calls: t.calls.map((u) => ({ id: u.id, type: 'function', function: { name: u.name, arguments: argsText(u.args) } })) }
          : {}),
      });
  }
  return {
    model: 'qwen3-coder-plus',
    messages,
    tools: c.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: {} } })),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** Gemini generateContent, as gemini-cli sends it: user and model contents, results by name. */
function gemini(c: Conversation): Json {
  const contents = c.turns.map((t): Json => {
    if (t.role === 'user') return { role: 'user', parts: [{ text: t.text }] };
    if (t.role === 'tool')
      return {
        role: 'user',
        parts: t.results.map((r) => ({ functionResponse: { id: r.id, name: r.name, response: r.isError ? { error: r.output } : { output: r.output } } })),
      };
    return {
      role: 'model',
      parts: [
        ...(t.reasoning ? [{ text: t.reasoning, thought: true }] : []),
        ...(t.text ? [{ text: t.text }] : []),
        ...(t.calls ?? []).map((u) => ({ functionCall: { id: u.id, name: u.name, args: u.args } })),
      ],
    };
  });
  return {
    contents,
    systemInstruction: { role: 'user', parts: [{ text: c.system }] },
    tools: [{ functionDeclarations: c.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: {} })) }],
    generationConfig: { temperature: 0 },
  };
}

export const ENCODE: Record<Protocol, (c: Conversation) => Json> = {
  'anthropic-messages': anthropic,
  'openai-responses': responses,
  'chat-completions': chat,
  gemini,
};

const PATHS: Record<Protocol, string> = {
  'anthropic-messages': '/v1/messages',
  'openai-responses': '/v1/responses',
  'chat-completions': '/v1/chat/completions',
  gemini: '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
};

/** One recorded model call: `request` as sent, the answer as the gateway reassembled it. */
export function modelCall(protocol: Protocol, call: number, request: unknown, answer: Answer, extra: Partial<GatewayCall> = {}): GatewayCall {
  return {
    call,
    protocol,
    kind: 'model',
    method: 'POST',
    path: PATHS[protocol],
    model: protocol === 'gemini' ? 'gemini-2.5-pro' : ((request as { model?: string }).model ?? 'm'),
    stream: true,
    status: 200,
    usage: { input: 1000 * call, output: 50 + call, cached: 100 * (call - 1), reasoning: 0 },
    costUsd: 0.001 * call,
    ms: 100 * call,
    firstByteMs: 10 * call,
    retries: 0,
    request,
    response: {
      text: answer.text ?? '',
      toolCalls: (answer.calls ?? []).map((u) => ({ id: u.id, name: u.name, arguments: argsText(u.args) })),
      stopReason: answer.calls?.length ? 'tool_use' : 'end_turn',
    },
    ...extra,
  };
}

/** The tools each protocol's CLI offers in the scenario: a shell, and a way to write a file. */
export const CLI_TOOLS: Record<
  Protocol,
  {
    shell: string;
    shellArgs: (cmd: string) => Record<string, unknown>;
    write: string;
    writeArgs: (file: string, content: string) => ToolUse['args'];
    custom?: boolean;
  }
> = {
  'anthropic-messages': {
    shell: 'Bash',
    shellArgs: (command) => ({ command, description: 'read' }),
    write: 'Write',
    writeArgs: (file_path, content) => ({ file_path, content }),
  },
  'openai-responses': {
    shell: 'exec_command',
    shellArgs: (cmd) => ({ cmd, yield_time_ms: 30000 }),
    write: 'apply_patch',
    writeArgs: (file, content) =>
      `*** Begin Patch\n*** Add File: ${file}\n${content
        .split('\n')
        .map((l) => `+${l}`)
        .join('\n')}\n*** End Patch`,
    custom: true,
  },
  'chat-completions': {
    shell: 'bash',
    shellArgs: (command) => ({ command, description: 'read' }),
    write: 'write',
    writeArgs: (filePath, content) => ({ filePath, content }),
  },
  gemini: {
    shell: 'run_shell_command',
    shellArgs: (command) => ({ command }),
    write: 'write_file',
    writeArgs: (file_path, content) => ({ file_path, content }),
  },
};

export const SYSTEM = 'You are a coding agent. Use the tools.';
export const PROMPT = '# Role: Architect\n\nRead `/task/app/non-passed/summary.jsonl` and write `/task/app/requirement.xml`.';
export const REQUIREMENT = '<requirements>\n  <requirement id="1"/>\n</requirements>\n';

/**
 * A try of the Architect: it reads the summary with the shell, writes requirement.xml, and says
 * it is done; a side call (a title, with no tools) comes between.
 */
export function architectTry(protocol: Protocol): { calls: GatewayCall[]; answers: Answer[] } {
  const kit = CLI_TOOLS[protocol];
  const tools = [
    { name: kit.shell, description: 'Runs a shell command.' },
    { name: kit.write, description: 'Writes a file.', ...(kit.custom ? { custom: true } : {}) },
    { name: 'read_thing', description: 'Reads.' },
  ];
  const shell: ToolUse = { id: 'call_1', name: kit.shell, args: kit.shellArgs("cat '/task/app/non-passed/summary.jsonl'") };
  const write: ToolUse = { id: 'call_2', name: kit.write, args: kit.writeArgs('/task/app/requirement.xml', REQUIREMENT) };
  const answers: Answer[] = [
    { text: 'I will read the summary first.', reasoning: 'The summary lists the failing tests.', calls: [shell] },
    { reasoning: 'Two tests fail on low_stock.', calls: [write] },
    { text: 'requirement.xml is written.' },
  ];
  const turns: Turn[] = [{ role: 'user', text: PROMPT }];
  const request = () => ENCODE[protocol]({ system: SYSTEM, tools, turns });
  const calls: GatewayCall[] = [];
  calls.push(modelCall(protocol, 1, request(), answers[0]));
  // A side call: a title for the session, no tools, a system prompt of its own.
  const title = ENCODE[protocol]({ system: 'Write a short title.', tools: [], turns: [{ role: 'user', text: `Title for: ${PROMPT}` }] });
  delete title.tools;
  calls.push(modelCall(protocol, 2, title, { text: 'Reading the summary' }, { usage: { input: 40, output: 4, cached: 0, reasoning: 0 } }));
  turns.push(
    { role: 'assistant', ...answers[0] },
    { role: 'tool', results: [{ id: 'call_1', name: kit.shell, output: '{"nodeid": "tests/test_inventory.py::test_low"}\n3 failed' }] },
  );
  calls.push(modelCall(protocol, 3, request(), answers[1]));
  turns.push({ role: 'assistant', ...answers[1] }, { role: 'tool', results: [{ id: 'call_2', name: kit.write, output: 'File written.' }] });
  calls.push(modelCall(protocol, 4, request(), answers[2]));
  return { calls, answers };
}
