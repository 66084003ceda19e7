// The one message protocol between the chart webview and the extension host, both ways.
// Both sides validate every message on receipt (isHostMessage / isWebviewMessage, derived from
// the schemas below) and drop anything else: a webview is untrusted content as far as the host
// is concerned, and the webview must not act on a half-formed message. A request the webview
// sends carries a requestId that the host's reply returns. Browser-safe: no node or vscode imports.
import type { ChartData, HeatmapData } from '../core/scoring/chart-types';
import type { SequenceData } from '../core/continual/sequence-data';
import { RUN_FLAGS } from '../core/metrics/run-flags';
import { isRecord } from '../core/util/is-record';
import { arrayOf, bool, guardFor, int, optional, requestId, str, type MessageSchema } from './message-schema';

/** Host → webview. */
export type HostMessage =
  /** The full picture, sent when the webview says it is ready. */
  | { type: 'init'; data: ChartData; gamma: number }
  /** New data after a pytest run (loop event or iteration.jsonl changed on disk). */
  | { type: 'update'; data: ChartData }
  /** The per-test heatmap of one run, answering heatmap-requested. */
  | { type: 'heatmap'; requestId: number; heatmap: HeatmapData }
  /** The sequence the open task belongs to (results matrix, curves, CL metrics), or null: none. */
  | { type: 'sequence'; sequence: SequenceData | null }
  /** The colour theme changed (the webview also watches its body class; this is a nudge). */
  | { type: 'theme-changed' }
  /** Answer to point-clicked: whether the iteration could be revealed. */
  | { type: 'reveal-ack'; requestId: number; run: string; iteration: number; ok: boolean; message?: string }
  /** Answer to export-requested. */
  | { type: 'export-done'; requestId: number; ok: boolean; folder?: string; message?: string };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'point-clicked'; requestId: number; run: string; iteration: number }
  | { type: 'gamma-changed'; gamma: number }
  | { type: 'heatmap-requested'; requestId: number; run: string }
  | { type: 'export-requested'; requestId: number }
  /** What the webview drew, echoed so tests (and logs) can check it against the data sent. */
  | { type: 'rendered'; runs: string[]; points: number; heatmapRun?: string; sequence?: string; gamma: number; foreground: string };

export const GAMMA_MIN = 0.5;
export const GAMMA_MAX = 2;
export const DEFAULT_GAMMA = 1;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => isRecord(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isInt = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
const isNumOrNull = (x: unknown): boolean => x === null || isNum(x);
const isGamma = (x: unknown): x is number => isNum(x) && x >= GAMMA_MIN && x <= GAMMA_MAX;
const RUN_KINDS = new Set(['agent', 'human', 'human-history']);

function isPoint(x: unknown): boolean {
  return (
    isObj(x) &&
    isInt(x.iteration) &&
    isNumOrNull(x.a) &&
    isNumOrNull(x.passed) &&
    isNum(x.targetPassed) &&
    isNum(x.gap) &&
    isNum(x.regressions) &&
    typeof x.crashed === 'boolean' &&
    isNum(x.tokensIn) &&
    isNum(x.tokensOut) &&
    isNum(x.timeSec) &&
    isStr(x.commit) &&
    (x.note === undefined || isStr(x.note)) &&
    (x.inflated === undefined || isInt(x.inflated)) &&
    (x.flags === undefined || isFlags(x.flags))
  );
}

function isFlags(x: unknown): boolean {
  return Array.isArray(x) && x.every((f) => (RUN_FLAGS as readonly unknown[]).includes(f));
}

function isMetricsRow(x: unknown): boolean {
  return (
    isObj(x) &&
    isNumOrNull(x.evoScore) &&
    isNumOrNull(x.evoScoreReference) &&
    typeof x.solved === 'boolean' &&
    typeof x.zeroRegression === 'boolean' &&
    isNum(x.regressions) &&
    isNumOrNull(x.finalA) &&
    isInt(x.iterations) &&
    isNum(x.tokensIn) &&
    isNum(x.tokensOut) &&
    isNum(x.timeSec)
  );
}

function isRun(x: unknown): boolean {
  return (
    isObj(x) &&
    isStr(x.run) &&
    RUN_KINDS.has(x.kind as string) &&
    isStr(x.label) &&
    Array.isArray(x.points) &&
    x.points.every(isPoint) &&
    Array.isArray(x.evoA) &&
    x.evoA.every(isNum) &&
    isMetricsRow(x.metrics) &&
    typeof x.pending === 'boolean' &&
    isFlags(x.flags)
  );
}

export function isChartData(x: unknown): x is ChartData {
  return isObj(x) && isInt(x.maxIterations) && isInt(x.maxX) && isNum(x.gamma) && Array.isArray(x.runs) && x.runs.every(isRun) && Array.isArray(x.skipped);
}

/** A heatmap whose cells are one status digit ('0' missing … '3' error) per test × column. */
export function isHeatmap(x: unknown): x is HeatmapData {
  if (!isObj(x) || !isStr(x.run) || !Array.isArray(x.tests) || !Array.isArray(x.columns) || !isStr(x.cells) || !Array.isArray(x.regressions)) return false;
  if (!x.tests.every(isStr) || !x.columns.every((c) => isObj(c) && isInt(c.iteration) && typeof c.ran === 'boolean')) return false;
  return x.cells.length === x.tests.length * x.columns.length && /^[0-3]*$/.test(x.cells);
}

const isScore = (x: unknown): boolean => x === null || (isNum(x) && x >= 0 && x <= 1);

/** A sequence's view data: a square lower-triangular matrix of 0, 1 or null over its tasks, curves and metrics. */
export function isSequenceData(x: unknown): x is SequenceData {
  if (!isObj(x) || !isStr(x.sequence) || typeof x.memory !== 'boolean' || !Array.isArray(x.tasks) || !x.tasks.every(isStr)) return false;
  const n = x.tasks.length;
  if (!Array.isArray(x.matrix) || x.matrix.length !== n) return false;
  if (!x.matrix.every((row, i) => Array.isArray(row) && (row.length === 0 || row.length === i + 1) && row.every((v) => v === null || v === 0 || v === 1)))
    return false;
  if (x.current !== undefined && !(isInt(x.current) && x.current < n)) return false;
  for (const curve of [x.learning, x.accuracy]) if (!Array.isArray(curve) || curve.length !== n || !curve.every(isScore)) return false;
  if (x.zeroShot !== undefined && !isStr(x.zeroShot)) return false;
  return (
    Array.isArray(x.metrics) &&
    x.metrics.every(
      (m) => isObj(m) && isStr(m.name) && isNumOrNull(m.value) && (m.missing === undefined || isStr(m.missing)) && (m.note === undefined || isStr(m.note)),
    )
  );
}

const HOST_SCHEMA: MessageSchema<HostMessage> = {
  init: { data: isChartData, gamma: isGamma },
  update: { data: isChartData },
  heatmap: { requestId, heatmap: isHeatmap },
  sequence: { sequence: (x) => x === null || isSequenceData(x) },
  'theme-changed': {},
  'reveal-ack': { requestId, run: str, iteration: int, ok: bool, message: optional(str) },
  'export-done': { requestId, ok: bool, folder: optional(str), message: optional(str) },
};

const WEBVIEW_SCHEMA: MessageSchema<WebviewMessage> = {
  ready: {},
  'point-clicked': { requestId, run: str, iteration: int },
  'gamma-changed': { gamma: isGamma },
  'heatmap-requested': { requestId, run: str },
  'export-requested': { requestId },
  rendered: { runs: arrayOf(str), points: int, heatmapRun: optional(str), sequence: optional(str), gamma: isGamma, foreground: str },
};

export const isHostMessage = guardFor(HOST_SCHEMA);
export const isWebviewMessage = guardFor(WEBVIEW_SCHEMA);
