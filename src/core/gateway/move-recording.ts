// A recording made in one task folder, replayed in another: prompts and the model's tool calls
// name the task's absolute paths (app/, its files), so every `from/` in the recorded requests and
// answers becomes `to/`, or every first call would differ and every write would go to the
// recorded folder. A streamed answer sends a tool call's arguments in pieces, and a path can be
// cut between two events: within each stream the string values at one place of the events (a
// tool call's `arguments`, a text `delta`) are read as one text, and a path found across pieces
// is moved into the piece where it starts. Events nothing was moved in keep their bytes.
import type { RecordedCall } from './replay-answer';

export function moveRecording(calls: readonly RecordedCall[], from: string, to: string): RecordedCall[] {
  const a = `${from.replace(/\/+$/, '')}/`;
  const b = `${to.replace(/\/+$/, '')}/`;
  if (a === b) return [...calls];
  return calls.map((c) => ({
    ...c,
    ...(c.request !== undefined ? { request: JSON.parse(JSON.stringify(c.request).split(a).join(b)) as unknown } : {}),
    ...(c.raw && c.raw.encoding === 'utf8' ? { raw: { ...c.raw, body: moveInBody(c.raw.body, c.raw.contentType, a, b) } } : {}),
  }));
}

/** `from` → `to` in an answer's body: a JSON body whole, an event stream piece by piece. */
function moveInBody(body: string, contentType: string, from: string, to: string): string {
  if (!/text\/event-stream/i.test(contentType)) return body.split(from).join(to);
  const events = body.split('\n\n');
  const parsed = events.map(parseEvent);
  // Each string value, by where it sits in its event (array indices included), in stream order.
  const groups = new Map<string, Leaf[]>();
  parsed.forEach((event, i) => {
    if (event) collectLeaves(event.json, '', (leaf) => groups.set(leaf.where, [...(groups.get(leaf.where) ?? []), { ...leaf, event: i }]));
  });
  const changed = new Set<number>();
  for (const leaves of groups.values()) {
    const whole = leaves.map((l) => l.get()).join('');
    if (!whole.includes(from)) continue;
    const starts = new Set<number>();
    const covered = new Uint8Array(whole.length);
    for (let at = whole.indexOf(from); at >= 0; at = whole.indexOf(from, at + from.length)) {
      starts.add(at);
      covered.fill(1, at, at + from.length);
    }
    let offset = 0;
    for (const leaf of leaves) {
      const text = leaf.get();
      let out = '';
      for (let k = 0; k < text.length; k++) {
        const at = offset + k;
        if (starts.has(at)) out += to;
        else if (!covered[at]) out += text[k];
      }
      offset += text.length;
      if (out !== text) {
        leaf.set(out);
        changed.add(leaf.event);
      }
    }
  }
  return events.map((e, i) => (changed.has(i) ? formatEvent(e, parsed[i]!) : e)).join('\n\n');
}

interface Leaf {
  where: string;
  get(): string;
  set(value: string): void;
  event: number;
}

interface ParsedEvent {
  /** The event's lines before its `data:` line (an `event:` name). */
  head: string[];
  json: unknown;
}

function parseEvent(text: string): ParsedEvent | undefined {
  const lines = text.split('\n');
  const data = lines.findIndex((l) => l.startsWith('data:'));
  if (data < 0 || lines.slice(data + 1).some((l) => l.startsWith('data:'))) return undefined;
  try {
    return { head: lines.slice(0, data), json: JSON.parse(lines[data].slice(5).trim()) as unknown };
  } catch {
    return undefined;
  }
}

function formatEvent(original: string, event: ParsedEvent): string {
  const tail = original.split('\n').filter((l, i) => i > event.head.length && !l.startsWith('data:'));
  return [...event.head, `data: ${JSON.stringify(event.json)}`, ...tail].join('\n');
}

function collectLeaves(value: unknown, where: string, add: (leaf: Omit<Leaf, 'event'>) => void): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (typeof v === 'string') add({ where: `${where}[${i}]`, get: () => value[i] as string, set: (s) => (value[i] = s) });
      else collectLeaves(v, `${where}[${i}]`, add);
    });
  } else if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (typeof o[key] === 'string') add({ where: `${where}.${key}`, get: () => o[key] as string, set: (s) => (o[key] = s) });
      else collectLeaves(o[key], `${where}.${key}`, add);
    }
  }
}
