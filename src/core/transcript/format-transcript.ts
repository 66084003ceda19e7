// A transcript for people (text for a terminal, markdown for a note or an issue) or for scripts
// (json: the transcript itself). Per call: a heading with its number, model, tokens, time and
// cost; what it added (the prompt, tool results); the answer (text, a short reasoning, each tool
// call as what it did: the command, the file written, the edit as -/+ lines). Long texts are
// clipped with how much was left out: the json has everything. Browser-safe.
import { toolAction } from '../../shared/tool-actions';
import type { Transcript, TranscriptCall, TranscriptItem, TranscriptUsage } from '../../shared/transcript-schema';

export const TRANSCRIPT_FORMATS = ['text', 'markdown', 'json'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** How much of each kind of text is shown, in lines (and characters, for one-line floods). */
const CLIP = {
  prompt: 40,
  system: 10,
  answer: 200,
  reasoning: 6,
  result: 40,
  command: 20,
  content: 20,
  diff: 30,
  patch: 40,
  input: 10,
};
const LINE_CHARS = 400;

type Part =
  | { kind: 'heading'; text: string }
  | { kind: 'line'; text: string }
  | { kind: 'label'; text: string; code?: string }
  | { kind: 'block'; text: string; lang?: string };

const count = (n: number): string => n.toLocaleString('en-US');

function tokens(u: TranscriptUsage): string {
  const cached = u.cached > 0 ? ` (${count(u.cached)} cached)` : '';
  const reasoning = u.reasoning > 0 ? ` (${count(u.reasoning)} reasoning)` : '';
  return `${count(u.input)} in${cached} / ${count(u.output)} out${reasoning}`;
}

const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const dollars = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

/** The first `lines` lines of `text` (each at most LINE_CHARS), and a line saying what was left out. */
export function clip(text: string, lines: number): string {
  const all = text.replace(/\n+$/, '').split('\n');
  const shown = all.slice(0, lines).map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS)}… (${count(l.length - LINE_CHARS)} more characters)` : l));
  if (all.length > lines) shown.push(`… (${count(all.length - lines)} more line${all.length - lines === 1 ? '' : 's'})`);
  return shown.join('\n');
}

const lineCount = (text: string): string => {
  const n = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return `${count(n)} line${n === 1 ? '' : 's'}`;
};

function diffLines(edits: { old: string; new: string }[]): string {
  return edits
    .map((e) =>
      [
        ...(e.old === ''
          ? []
          : e.old
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => `-${l}`)),
        ...(e.new === ''
          ? []
          : e.new
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => `+${l}`)),
      ].join('\n'),
    )
    .join('\n@@\n');
}

function toolCallParts(item: { name: string; input: unknown; id?: string }): Part[] {
  const action = toolAction(item);
  switch (action?.kind) {
    case 'shell':
      return [
        { kind: 'label', text: item.name },
        { kind: 'block', text: clip(`$ ${action.command}`, CLIP.command), lang: 'sh' },
      ];
    case 'write':
      return [
        { kind: 'label', text: `${item.name} (${lineCount(action.content)})`, code: action.path },
        { kind: 'block', text: clip(action.content, CLIP.content) },
      ];
    case 'edit':
      return [
        { kind: 'label', text: item.name, code: action.path },
        { kind: 'block', text: clip(diffLines(action.edits), CLIP.diff), lang: 'diff' },
      ];
    case 'patch':
      return [
        { kind: 'label', text: item.name, code: action.paths.join(', ') || '(no file named)' },
        { kind: 'block', text: clip(action.patch, CLIP.patch), lang: 'diff' },
      ];
    default: {
      const input = typeof item.input === 'string' ? item.input : JSON.stringify(item.input, null, 1);
      return [
        { kind: 'label', text: item.name },
        { kind: 'block', text: clip(input ?? '', CLIP.input) },
      ];
    }
  }
}

function itemParts(item: TranscriptItem, answer: boolean): Part[] {
  switch (item.kind) {
    case 'text': {
      const lines = item.role === 'system' ? CLIP.system : item.role === 'user' ? CLIP.prompt : CLIP.answer;
      const label = item.role === 'assistant' && !answer ? 'assistant (earlier)' : item.role;
      return [
        { kind: 'label', text: label },
        { kind: 'block', text: clip(item.text, lines) },
      ];
    }
    case 'reasoning':
      return [
        { kind: 'label', text: 'reasoning' },
        { kind: 'block', text: clip(item.text, CLIP.reasoning) },
      ];
    case 'tool-call':
      return toolCallParts(item);
    case 'tool-result': {
      const name = item.name ?? item.id ?? 'a tool';
      return [
        { kind: 'label', text: `${item.isError ? 'error from' : 'result of'} ${name} (${lineCount(item.output)})` },
        { kind: 'block', text: clip(item.output, CLIP.result) },
      ];
    }
  }
}

function callHeading(c: TranscriptCall): string {
  const bits = [`call ${c.call}`];
  if (c.side) bits.push('side call');
  if (c.model) bits.push(c.model);
  if (c.usage) bits.push(tokens(c.usage));
  if (c.ms !== undefined) bits.push(duration(c.ms));
  if (c.costUsd !== undefined) bits.push(dollars(c.costUsd));
  if (c.status !== undefined && c.status !== 200) bits.push(c.status === 0 ? 'no answer' : `HTTP ${c.status}`);
  if (c.retries) bits.push(`${c.retries} retr${c.retries === 1 ? 'y' : 'ies'}`);
  if (c.replayed) bits.push('replayed');
  return bits.join(' · ');
}

function callParts(c: TranscriptCall): Part[] {
  const parts: Part[] = [{ kind: 'heading', text: callHeading(c) }];
  if (c.refused !== undefined) parts.push({ kind: 'line', text: `refused by the gateway: ${c.refused}` });
  else if (c.error !== undefined) parts.push({ kind: 'line', text: `failed: ${c.error}` });
  if (c.truncated !== undefined) parts.push({ kind: 'line', text: `record cut: ${c.truncated}` });
  for (const item of c.input) parts.push(...itemParts(item, false));
  for (const item of c.output) parts.push(...itemParts(item, true));
  if (c.output.length === 0 && c.error === undefined && c.refused === undefined) parts.push({ kind: 'line', text: '(an empty answer)' });
  return parts;
}

function totalLine(t: Transcript): string {
  const side = t.calls.filter((c) => c.side).length;
  const calls = `${count(t.totals.calls)} call${t.totals.calls === 1 ? '' : 's'}${side > 0 ? ` (${side} side)` : ''}`;
  const cost = t.totals.costUsd !== undefined ? dollars(t.totals.costUsd) : 'cost unknown';
  return `total: ${calls} · ${tokens(t.totals.usage)} · ${duration(t.totals.ms)} · ${cost}`;
}

function transcriptParts(t: Transcript): { title: string; about: string[]; parts: Part[]; total: string } {
  const title = `${t.role} · iteration ${t.iteration} · try ${t.try}`;
  const about = [
    [
      t.run !== undefined ? `run ${t.run}` : '',
      t.agent !== undefined ? `agent ${t.agent}` : '',
      t.source === 'gateway' ? "from the gateway's record" : "from the CLI's events",
    ]
      .filter(Boolean)
      .join(' · '),
    `${t.system !== undefined ? `system prompt: ${count(t.system.length)} characters` : 'no system prompt'} · ${t.tools.length} tool${t.tools.length === 1 ? '' : 's'}${t.tools.length > 0 ? `: ${t.tools.map((x) => x.name).join(', ')}` : ''}`,
    ...t.notes.map((n) => `note: ${n}`),
  ];
  return { title, about, parts: t.calls.flatMap(callParts), total: totalLine(t) };
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');

function renderText(t: Transcript): string {
  const { title, about, parts, total } = transcriptParts(t);
  const out = [title, ...about];
  for (const p of parts) {
    if (p.kind === 'heading') out.push('', `── ${p.text}`);
    else if (p.kind === 'line') out.push(`  ${p.text}`);
    else if (p.kind === 'label') out.push(`  ${p.text}${p.code !== undefined ? ` ${p.code}` : ''}:`);
    else out.push(indent(p.text));
  }
  out.push('', total);
  return `${out.join('\n')}\n`;
}

/** A fence longer than any run of backticks in the text. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

const inlineCode = (s: string): string => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);

function renderMarkdown(t: Transcript): string {
  const { title, about, parts, total } = transcriptParts(t);
  const out = [`# Transcript: ${title}`, '', ...about.map((a) => `- ${a}`)];
  for (const p of parts) {
    if (p.kind === 'heading') out.push('', `## ${p.text.replace(/^call (\d+)/, 'Call $1')}`, '');
    else if (p.kind === 'line') out.push(`*${p.text.replace(/\*/g, '\\*')}*`, '');
    else if (p.kind === 'label') out.push(`**${p.text}**${p.code !== undefined ? ` ${inlineCode(p.code)}` : ''}`, '');
    else out.push(fence(p.text, p.lang), '');
  }
  out.push('', `**${total.replace(/^total/, 'Total')}**`);
  return `${out.join('\n')}\n`;
}

export function formatTranscript(t: Transcript, format: TranscriptFormat): string {
  if (format === 'json') return `${JSON.stringify(t, null, 2)}\n`;
  return format === 'markdown' ? renderMarkdown(t) : renderText(t);
}
