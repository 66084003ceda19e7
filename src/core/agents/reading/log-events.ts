// The JSON events in a try's log (`<role>-try-<N>.log`, cli-driver.ts): the driver's header
// (`# agent: …` lines), then the CLI's stdout and stderr as they arrived, then its footer
// (`# ended: … after N s`, `# usage: …`, `# error: …`, the gateway's `# wire: …`). Event streams
// are JSON Lines; logs recorded before the presets printed them hold one JSON document (an
// object, or an array of messages), possibly pretty-printed. Stderr and footer lines are not
// events; a line that opens an object and does not parse is counted, except the last one, which
// may be a step still being written.
import { jsonValues } from './json-scan';
import { isObj } from './event-turns';

export interface LogEvents {
  events: Record<string, unknown>[];
  /** Lines that open a JSON object but do not parse (a last one cut short aside). */
  unreadable: number;
  /** The driver's end line: how the try ended, after how long. */
  ended?: { how: string; ms: number };
  /** The driver's error line: the error the CLI's own output reported. */
  error?: string;
}

const DRIVER_LINE = /^# [a-z ]+:/;
const ENDED = /^# ended:\s+(.*?) after ([\d.]+) s\s*$/;
const ERROR = /^# error:\s+(.*?)\s*$/;

export function readLogEvents(log: string): LogEvents {
  const lines = log.split(/\r?\n/);
  const events: Record<string, unknown>[] = [];
  let unreadable = 0;
  let cutLast = false;
  let ended: LogEvents['ended'];
  let error: string | undefined;
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith('{')) {
      const v = parse(t);
      if (isObj(v)) {
        events.push(v);
        if (cutLast) unreadable++;
        cutLast = false;
      } else {
        // Only the last such line may be a step being written: an earlier one is counted once a later event shows up.
        if (cutLast) unreadable++;
        cutLast = true;
      }
    } else if (t.startsWith('[')) {
      // A JSON array of messages (Qwen Code's single-JSON output); stderr's "[WARN] …" lines do not parse.
      const v = parse(t);
      if (Array.isArray(v)) events.push(...v.filter(isObj));
    } else {
      const e = ENDED.exec(t);
      if (e) ended = { how: e[1], ms: Math.round(Number(e[2]) * 1000) };
      const r = ERROR.exec(t);
      if (r) error = r[1];
    }
  }
  // A pretty-printed document (single-JSON output), read from the CLI's output without the driver's lines.
  if (events.length === 0) {
    const body = lines.filter((l) => !DRIVER_LINE.test(l));
    const pretty = prettyDocuments(body);
    for (const v of pretty.length > 0 ? pretty : (jsonValues(body.join('\n')) as unknown[])) {
      if (Array.isArray(v)) events.push(...v.filter(isObj));
      else if (isObj(v)) events.push(v);
    }
    if (events.length > 0) unreadable = 0;
  }
  return { events, unreadable, ...(ended ? { ended } : {}), ...(error !== undefined ? { error } : {}) };
}

/** Documents printed with an indent: from a line that is only `{` (or `[`) to the next that is only `}` (or `]`). */
function prettyDocuments(lines: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].trimEnd();
    if (open !== '{' && open !== '[') continue;
    const close = open === '{' ? '}' : ']';
    const end = lines.findIndex((l, j) => j > i && l.trimEnd() === close);
    if (end < 0) continue;
    const v = parse(lines.slice(i, end + 1).join('\n'));
    if (v === undefined) continue;
    out.push(v);
    i = end;
  }
  return out;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
