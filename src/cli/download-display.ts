// What `sweci dataset download` shows: on a terminal a live bar (bytes, rate, ETA, the files in
// flight), redrawn in place; in a pipe or CI log a plain line per file and per tenth of the
// bytes; with --json one event per line. log-update (and the string-width tables it loads) is
// loaded only for the live bar: a script's --json download does not pay for it at start-up.
import { plural } from '../core/util/plural';
import type { DownloadEvent } from '../core/download/download-dataset';
import { formatEta, percent, summaryLine, type ProgressTracker } from '../core/download/download-progress';
import { formatBytes } from '../core/util/free-space';

export interface DownloadDisplay {
  event(e: DownloadEvent, tracker: ProgressTracker | undefined): void;
  stop(): void;
}

export async function openDownloadDisplay(json: boolean): Promise<DownloadDisplay> {
  if (json) return jsonDisplay();
  const sized = process.stderr.isTTY && process.stderr.columns > 0;
  return sized ? liveDisplay((await import('log-update')).logUpdateStderr) : lineDisplay();
}

function planLine(e: Extract<DownloadEvent, { type: 'plan' }>): string {
  return (
    `${e.repo}@${e.revision} split ${e.split}: ${plural(e.tasks, 'task')}, ${plural(e.files, 'file')}, ${formatBytes(e.totalBytes)}; ` +
    `${formatBytes(e.haveBytes)} already verified, ${formatBytes(e.needBytes)} to fetch` +
    (e.freeBytes !== undefined ? ` (${formatBytes(e.freeBytes)} free)` : '')
  );
}

function otherLine(e: DownloadEvent): string | undefined {
  switch (e.type) {
    case 'plan':
      return planLine(e);
    case 'retry':
      return `${e.path}: ${e.reason}, trying again in ${formatEta(e.waitMs / 1000)} (try ${e.attempt + 1})`;
    case 'mismatch':
      return `${e.path}: hash ${e.got} is not the Hub's ${e.expected}; fetching it again`;
    case 'warning':
      return `warning: ${e.message}`;
    default:
      return undefined;
  }
}

function jsonDisplay(): DownloadDisplay {
  let last = 0;
  return {
    event: (e, tracker) => {
      if (e.type === 'bytes') {
        // One progress event a second at most: a byte count per network chunk would flood a script.
        const now = Date.now();
        if (now - last < 1000 || !tracker) return;
        last = now;
        process.stdout.write(JSON.stringify({ type: 'progress', ...tracker.snapshot() }) + '\n');
        return;
      }
      process.stdout.write(JSON.stringify(e) + '\n');
    },
    stop: () => undefined,
  };
}

function lineDisplay(): DownloadDisplay {
  let tenth = -1;
  return {
    event: (e, tracker) => {
      const line = otherLine(e);
      if (line) return void process.stderr.write(line + '\n');
      if (!tracker) return;
      if (e.type === 'file-done') {
        const how = e.resumedFrom > 0 ? `resumed at ${formatBytes(e.resumedFrom)}` : 'verified';
        process.stderr.write(`${e.path} (${formatBytes(e.size)}, ${how}) · ${summaryLine(tracker.snapshot())}\n`);
      } else if (e.type === 'bytes') {
        const p = tracker.snapshot();
        const t = p.total > 0 ? Math.floor((p.done * 10) / p.total) : 10;
        if (t > tenth) {
          if (tenth >= 0) process.stderr.write(`${summaryLine(p)}\n`);
          tenth = t;
        }
      }
    },
    stop: () => undefined,
  };
}

function bar(done: number, total: number, width: number): string {
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  return '█'.repeat(filled) + '░'.repeat(Math.max(0, width - filled));
}

function liveDisplay(draw: typeof import('log-update').logUpdateStderr): DownloadDisplay {
  let lastDraw = 0;
  return {
    event: (e, tracker) => {
      const line = otherLine(e);
      if (line) {
        draw.clear();
        process.stderr.write(line + '\n');
      }
      if (!tracker) return;
      const now = Date.now();
      if (e.type === 'bytes' && now - lastDraw < 100) return;
      lastDraw = now;
      const p = tracker.snapshot();
      const cols = Math.max(40, process.stderr.columns || 80);
      const rows = [`${bar(p.done, p.total, 30)} ${summaryLine(p)}`];
      for (const f of p.active) rows.push(`  ${percent(f.bytes, f.size).padStart(4)} ${f.path}`.slice(0, cols - 1));
      draw(rows.join('\n'));
    },
    stop: () => draw.done(),
  };
}
