// What `sweci run` shows while it works. A terminal gets a live table (one row per task:
// state, iteration, a(c), gap, what it is doing; overall progress with an ETA), redrawn in
// place by log-update; a pipe or a CI log gets one line per change; --json gets one JSON
// event per line for scripts.
import logUpdate from 'log-update';
import type { BatchEvent } from '../core/batch/batch-types';
import type { TaskState, TaskStatus } from '../core/records/task-status-file';

export interface BatchDisplay {
  start(title: string): void;
  event(e: BatchEvent): void;
  stop(): void;
  final(statuses: readonly TaskStatus[]): void;
}

interface Row {
  status?: TaskStatus;
  activity?: string;
  startedAt?: number;
  finishedAt?: number;
  /** Finished before this call did anything (skipped as done): not counted for the ETA. */
  skipped?: boolean;
}

const DONE: readonly TaskState[] = ['solved', 'max-iterations', 'init-failed', 'failed', 'budget-exhausted', 'cancelled', 'busy'];

export function openBatchDisplay(opts: { json: boolean; tasks: readonly string[]; workers: number }): BatchDisplay {
  if (opts.json) return jsonDisplay();
  // A terminal of no size (a pty nobody sized, as in some CI runners) would show an empty frame.
  const sized = process.stdout.isTTY && process.stdout.columns > 0 && process.stdout.rows > 0;
  return sized ? liveDisplay(opts.tasks, opts.workers) : lineDisplay();
}

function jsonDisplay(): BatchDisplay {
  const out = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
  return {
    start: (title) => out({ type: 'batch-started', title }),
    event: (e) => {
      // Agents' and pytest's raw output stays in the task folders' logs.
      if (e.type === 'loop-event' && (e.event.type === 'agent-output' || e.event.type === 'pytest-output')) return;
      out(e);
    },
    stop: () => undefined,
    final: (statuses) => out({ type: 'batch-finished', statuses }),
  };
}

function lineDisplay(): BatchDisplay {
  return {
    start: (title) => console.log(title),
    event: (e) => {
      if (e.type === 'task-status' && e.status.state !== 'queued') console.log(statusLine(e.status));
    },
    stop: () => undefined,
    final: (statuses) => console.log(totals(statuses)),
  };
}

function liveDisplay(tasks: readonly string[], workers: number): BatchDisplay {
  const rows = new Map<string, Row>(tasks.map((t) => [t, {}]));
  let title = '';
  const began = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  const render = () => {
    dirty = false;
    const width = Math.max(...tasks.map((t) => t.length), 4);
    const lines = [title, progressLine(rows, began, workers), ''];
    lines.push(`${'task'.padEnd(width)}  ${'state'.padEnd(16)} ${'iter'.padStart(4)} ${'a(c)'.padStart(7)} ${'gap'.padStart(5)}  activity`);
    for (const [task, row] of rows) {
      const s = row.status;
      const a = s?.a === undefined ? '' : s.a.toFixed(3);
      const activity = s && DONE.includes(s.state) ? (s.reason ?? '') : (row.activity ?? '');
      lines.push(
        `${task.padEnd(width)}  ${(s?.state ?? 'queued').padEnd(16)} ${String(s?.iterations ?? '').padStart(4)} ${a.padStart(7)} ${String(s?.gap ?? '').padStart(5)}  ${activity.slice(0, 60)}`,
      );
    }
    logUpdate(lines.join('\n'));
  };
  return {
    start(t) {
      title = t;
      render();
      // Every second for the clock; events redraw within 200 ms (see event()).
      timer = setInterval(() => render(), 1000);
    },
    event(e) {
      if (e.type === 'loop-event') return;
      const row = rows.get(e.type === 'task-status' ? e.status.task : e.task);
      if (!row) return;
      if (e.type === 'task-activity') row.activity = e.activity;
      else {
        const now = Date.now();
        if (e.status.state !== 'queued' && row.startedAt === undefined) row.startedAt = now;
        if (DONE.includes(e.status.state) && row.finishedAt === undefined) {
          row.finishedAt = now;
          row.skipped = !row.status || row.status.state === 'queued';
        }
        row.status = e.status;
      }
      if (!dirty) {
        dirty = true;
        setTimeout(render, 200);
      }
    },
    stop() {
      if (timer) clearInterval(timer);
      render();
      logUpdate.done();
    },
    final: (statuses) => console.log(totals(statuses)),
  };
}

function progressLine(rows: Map<string, Row>, began: number, workers: number): string {
  const all = [...rows.values()];
  const done = all.filter((r) => r.status && DONE.includes(r.status.state));
  const timed = done.filter((r) => !r.skipped && r.startedAt !== undefined && r.finishedAt !== undefined);
  const elapsed = Date.now() - began;
  let eta = '';
  const remaining = all.length - done.length;
  if (remaining > 0 && timed.length > 0) {
    const mean = timed.reduce((s, r) => s + (r.finishedAt! - r.startedAt!), 0) / timed.length;
    eta = ` · ETA ${duration((mean * remaining) / Math.min(workers, remaining))}`;
  }
  return `${done.length}/${all.length} done · ${duration(elapsed)} elapsed${eta}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function statusLine(s: TaskStatus): string {
  const parts = [s.task, s.flags?.length ? `${s.state} ⚑ ${s.flags.join(', ')}` : s.state];
  if (s.iterations !== undefined) parts.push(`iteration ${s.iterations}`);
  if (s.a !== undefined) parts.push(`a(c) ${s.a.toFixed(3)}`);
  if (s.gap !== undefined) parts.push(`gap ${s.gap}`);
  if (s.reason) parts.push(s.reason);
  return parts.join(' · ');
}

export function totals(statuses: readonly TaskStatus[]): string {
  const count = new Map<string, { n: number; flagged: number; flags: Set<string> }>();
  for (const s of statuses) {
    const c = count.get(s.state) ?? { n: 0, flagged: 0, flags: new Set<string>() };
    c.n++;
    if (s.flags?.length) {
      c.flagged++;
      for (const f of s.flags) c.flags.add(f);
    }
    count.set(s.state, c);
  }
  // "2 solved (1 flagged: not-isolated)": a flagged solve is counted, never as a plain one.
  const say = ([state, c]: [string, { n: number; flagged: number; flags: Set<string> }]) =>
    `${c.n} ${state}${c.flagged ? ` (${c.flagged} flagged: ${[...c.flags].join(', ')})` : ''}`;
  return `finished: ${[...count].map(say).join(', ')}`;
}
