// The harness's side of the report channel: our plugin keeps pytest's original standard output for
// itself (report-plugin/sweci_pytest_report.py) and writes one frame per line: `start`, a `phase`
// per test phase pytest reports, a `collect` per failed or skipped collection, the whole `report`,
// then `end`, and closes it before the code under test's exit handlers run. The reader keeps the
// first complete end frame; what the code under test could do to the channel (write into it,
// repeat it, cut it) shows as a broken stream. Its memory is bounded whatever arrives.
import { TEST_PHASES } from './test-report';
import { isRecord } from '../util/is-record';

export const FRAME_PREFIX = '@sweci-frame ';

/** The stream as a whole (frames and report), in characters. */
export const MAX_STREAM_CHARS = 128 * 2 ** 20;
/** The report frame alone. */
export const MAX_REPORT_FRAME_CHARS = 64 * 2 ** 20;
/** Any other frame (one test phase). */
const MAX_FRAME_CHARS = 1 * 2 ** 20;
/** Distinct tests the stream may name, and their ids' characters together. */
const MAX_TESTS = 500_000;
const MAX_TEST_ID_CHARS = 32 * 2 ** 20;
/** What a process printed before the plugin took the channel (a start-up print), kept for the output. */
const MAX_PREAMBLE_CHARS = 64 * 1024;

export interface StreamedRun {
  kind: 'ended';
  /** The report as json.dumps wrote it (pytest-json-report's format). */
  reportText: string;
  exitStatus: number;
  /** Files of the code under test that replaced pytest's functions or registered a plugin. */
  integrity: string[];
  /** Each test's outcome as pytest-json-report derives it from the phases reported. */
  outcomes: Map<string, string>;
  /** Counts as pytest's summary line would show them (category → reports). */
  counts: Map<string, number>;
  /** Something wrote to the channel after the end frame: ignored, but only the code under test can. */
  trailing: boolean;
}

export type StreamRead =
  | StreamedRun
  /** No frame at all: the plugin never took the channel. */
  | { kind: 'absent' }
  /** Started but never ended (pytest was killed, or the channel was closed or taken over). */
  | { kind: 'unfinished' }
  /** What arrived is not what our plugin writes. `limit`: it was only too large. */
  | { kind: 'broken'; reason: string; limit?: boolean };

type State = 'before' | 'streaming' | 'ended' | 'broken';

export class ReportStreamReader {
  private state: State = 'before';
  private line: string[] = [];
  private lineChars = 0;
  private total = 0;
  private problem: { reason: string; limit?: boolean } | undefined;
  private preambleText = '';
  private reportText: string | undefined;
  private exitStatus = 0;
  private integrity: string[] = [];
  private readonly outcomes = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private idChars = 0;
  private trailing = false;

  /** Text printed on standard output before the plugin took it. */
  get preamble(): string {
    return this.preambleText;
  }

  /** Feeds one chunk of standard output. Never throws. */
  push(chunk: string): void {
    if (this.state === 'ended') {
      if (chunk.length) this.trailing = true;
      return;
    }
    if (this.state === 'broken') return;
    this.total += chunk.length;
    if (this.total > MAX_STREAM_CHARS) return this.fail(`the report stream passed ${MAX_STREAM_CHARS / 2 ** 20} MiB`, true);
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0 && !this.is('broken'); nl = chunk.indexOf('\n', from)) {
      this.add(chunk.slice(from, nl));
      from = nl + 1;
      const line = this.line.join('');
      this.line = [];
      this.lineChars = 0;
      this.handle(line);
      if (this.is('ended')) {
        if (from < chunk.length) this.trailing = true;
        return;
      }
    }
    if (!this.is('broken') && from < chunk.length) this.add(chunk.slice(from));
  }

  /** The state, read afresh (handle() changes it under TypeScript's narrowing). */
  private is(state: State): boolean {
    return this.state === state;
  }

  /** The stream once standard output is closed. */
  finish(): StreamRead {
    if (this.state === 'broken') return { kind: 'broken', ...this.problem! };
    if (this.state === 'ended') {
      return {
        kind: 'ended',
        reportText: this.reportText!,
        exitStatus: this.exitStatus,
        integrity: this.integrity,
        outcomes: this.outcomes,
        counts: this.counts,
        trailing: this.trailing,
      };
    }
    if (this.state === 'before') {
      if (this.lineChars) this.keepPreamble(this.line.join(''));
      return { kind: 'absent' };
    }
    return { kind: 'unfinished' };
  }

  private add(piece: string): void {
    if (!piece) return;
    this.line.push(piece);
    this.lineChars += piece.length;
    if (this.lineChars <= MAX_FRAME_CHARS) return;
    let head = '';
    for (let i = 0; head.length < 40 && i < this.line.length; i++) head += this.line[i];
    if (!head.startsWith(FRAME_PREFIX) && this.state === 'before') {
      // A long start-up print: kept in part, never held whole.
      this.keepPreamble(this.line.join(''));
      this.line = [];
      this.lineChars = 0;
      return;
    }
    if (!head.startsWith(`${FRAME_PREFIX}report `)) return this.fail('a frame of the report stream is over 1 MiB', true);
    if (this.lineChars > MAX_REPORT_FRAME_CHARS + 64) return this.fail(`the streamed report is over ${MAX_REPORT_FRAME_CHARS / 2 ** 20} MiB`, true);
  }

  private keepPreamble(text: string): void {
    if (this.preambleText.length < MAX_PREAMBLE_CHARS) this.preambleText += text.slice(0, MAX_PREAMBLE_CHARS - this.preambleText.length);
  }

  private fail(reason: string, limit = false): void {
    this.state = 'broken';
    this.problem = limit ? { reason, limit } : { reason };
    this.line = [];
  }

  private handle(line: string): void {
    if (!line.startsWith(FRAME_PREFIX)) {
      // Before the plugin takes the channel, a start-up print (sitecustomize, a .pth) lands here.
      if (this.state === 'before') return this.keepPreamble(`${line}\n`);
      return this.fail('the report channel carried text that is not a frame of our plugin');
    }
    const space = line.indexOf(' ', FRAME_PREFIX.length);
    const kind = space < 0 ? line.slice(FRAME_PREFIX.length) : line.slice(FRAME_PREFIX.length, space);
    const payload = space < 0 ? '' : line.slice(space + 1);
    if (kind === 'start') {
      if (this.state !== 'before') return this.fail('the report stream started twice');
      this.state = 'streaming';
      return;
    }
    if (this.state === 'before') return this.fail(`a "${kind}" frame came before the report stream started`);
    if (kind === 'report') {
      if (this.reportText !== undefined) return this.fail('the report stream carried two reports');
      this.reportText = payload;
      return;
    }
    const fields = parseFields(payload);
    if (!fields) return this.fail(`a "${kind}" frame of the report stream is not a JSON object`);
    if (kind === 'phase') return this.phase(fields);
    if (kind === 'collect') return this.collect(fields);
    if (kind === 'end') return this.end(fields);
    this.fail(`the report stream has a frame of unknown kind "${kind.slice(0, 40)}"`);
  }

  private phase(f: Record<string, unknown>): void {
    const { nodeid, when, category, counted } = f;
    if (typeof nodeid !== 'string' || typeof category !== 'string' || typeof counted !== 'boolean' || !TEST_PHASES.includes(when as never)) {
      return this.fail('a "phase" frame of the report stream lacks its fields');
    }
    if (this.reportText !== undefined) return this.fail('a test phase came after the streamed report');
    const known = this.outcomes.get(nodeid);
    if (known === undefined) {
      this.idChars += nodeid.length;
      if (this.outcomes.size >= MAX_TESTS || this.idChars > MAX_TEST_ID_CHARS)
        return this.fail(`the report stream names more tests than the ${MAX_TESTS} it may`, true);
    }
    // pytest-json-report's rule: a test is passed until a phase reports another category.
    this.outcomes.set(nodeid, category !== 'passed' && category !== '' ? category : (known ?? 'passed'));
    if (counted && category !== '') this.count(category);
  }

  private collect(f: Record<string, unknown>): void {
    if (typeof f.nodeid !== 'string' || typeof f.outcome !== 'string') return this.fail('a "collect" frame of the report stream lacks its fields');
    // pytest's terminal counts a failed collection as an error, a skipped one as skipped.
    if (f.outcome === 'failed') this.count('error');
    else if (f.outcome === 'skipped') this.count('skipped');
  }

  private end(f: Record<string, unknown>): void {
    if (this.reportText === undefined) return this.fail('the report stream ended without its report');
    if (typeof f.exitstatus !== 'number' || !Number.isInteger(f.exitstatus) || !isRecord(f.integrity)) {
      return this.fail('the end frame of the report stream lacks its fields');
    }
    this.exitStatus = f.exitstatus;
    this.integrity = Object.keys(f.integrity).sort();
    this.state = 'ended';
  }

  private count(category: string): void {
    this.counts.set(category, (this.counts.get(category) ?? 0) + 1);
  }
}

function parseFields(payload: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(payload);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
