// Bytes, rate and ETA of a download as a whole and of the files in flight, for the CLI's bar,
// its plain lines and --json, and the editor's progress notification alike.
import { formatBytes } from '../util/free-space';

export interface ActiveFile {
  path: string;
  bytes: number;
  size: number;
}

export interface ProgressSnapshot {
  /** Bytes of the chosen files on disk (verified or partial). */
  done: number;
  total: number;
  /** Bytes per second over the last few seconds. */
  rate: number;
  /** Seconds left at that rate, or undefined before it is known. */
  etaSeconds: number | undefined;
  active: ActiveFile[];
}

const WINDOW_MS = 5000;

export class ProgressTracker {
  private readonly active = new Map<string, ActiveFile>();
  private base: number;
  private samples: Array<{ at: number; done: number }> = [];

  constructor(
    readonly total: number,
    /** Bytes of the chosen files already verified before this run. */
    verified: number,
    private readonly now: () => number = Date.now,
  ) {
    this.base = verified;
  }

  start(path: string, size: number): void {
    this.active.set(path, { path, bytes: 0, size });
  }

  update(path: string, bytesOnDisk: number): void {
    const f = this.active.get(path);
    if (f) f.bytes = bytesOnDisk;
  }

  finish(path: string): void {
    const f = this.active.get(path);
    if (!f) return;
    this.active.delete(path);
    this.base += f.size;
  }

  /** A file given up on: its bytes no longer count as done. */
  drop(path: string): void {
    this.active.delete(path);
  }

  snapshot(): ProgressSnapshot {
    let done = this.base;
    for (const f of this.active.values()) done += f.bytes;
    const at = this.now();
    this.samples.push({ at, done });
    while (this.samples.length > 2 && at - this.samples[1].at > WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const rate = at > first.at ? ((done - first.done) * 1000) / (at - first.at) : 0;
    const etaSeconds = rate > 0 ? (this.total - done) / rate : undefined;
    return { done, total: this.total, rate, etaSeconds, active: [...this.active.values()].map((f) => ({ ...f })) };
  }
}

/** A short time left: 42s, 3m05s, 2h10m; '?' when unknown. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function percent(done: number, total: number): string {
  return total > 0 ? `${Math.floor((done * 100) / total)}%` : '100%';
}

export function summaryLine(p: ProgressSnapshot): string {
  return `${percent(p.done, p.total)} ${formatBytes(p.done)} of ${formatBytes(p.total)} · ${formatBytes(p.rate)}/s · ETA ${formatEta(p.etaSeconds)}`;
}
