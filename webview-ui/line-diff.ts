// A small line diff for the Transcript panel's file writes and edits (Myers' O(ND) algorithm on
// lines, after the common head and tail are set aside), and the hunks a person reads: changed
// lines with a few unchanged ones around them, the long unchanged stretches folded. No DOM, so
// unit tests run it in node.

import { splitLines } from '../src/shared/split-lines';

type DiffLine = { kind: 'same' | 'add' | 'del'; text: string };

/** Beyond this many differing lines a write is shown as all removed, then all added (the search would cost too much). */
const MAX_EDITS = 4000;

/** The lines of `after` against `before`, in order: unchanged, removed, added. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [
    ...a.slice(0, head).map((text): DiffLine => ({ kind: 'same', text })),
    ...middle,
    ...a.slice(a.length - tail).map((text): DiffLine => ({ kind: 'same', text })),
  ];
}

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((text) => ({ kind: 'add', text }));
  if (m === 0) return a.map((text) => ({ kind: 'del', text }));
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return [...a.map((text): DiffLine => ({ kind: 'del', text })), ...b.map((text): DiffLine => ({ kind: 'add', text }))];
  // Walk the trace back from (n, m), one edit per d.
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ kind: 'same', text: a[--x] });
      y--;
    }
    if (x === prevX) out.push({ kind: 'add', text: b[--y] });
    else out.push({ kind: 'del', text: a[--x] });
  }
  while (x > 0 && y > 0) {
    out.push({ kind: 'same', text: a[--x] });
    y--;
  }
  return out.reverse();
}

export type Hunk = { kind: 'lines'; lines: DiffLine[] } | { kind: 'folded'; count: number };

/** The diff as a person reads it: each change with `context` unchanged lines either side, longer unchanged runs folded. */
export function diffHunks(lines: DiffLine[], context = 3): Hunk[] {
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = 1;
  });
  const out: Hunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const start = i;
    if (keep[i]) {
      while (i < lines.length && keep[i]) i++;
      out.push({ kind: 'lines', lines: lines.slice(start, i) });
    } else {
      while (i < lines.length && !keep[i]) i++;
      out.push({ kind: 'folded', count: i - start });
    }
  }
  return out;
}

/** Lines added and removed. */
export function diffStat(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}
