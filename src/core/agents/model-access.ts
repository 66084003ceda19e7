// How agents reach their model, as configured: what a confined step may reach on the network
// (sweci.agents.network), the bounds the gateway holds each try and step to (calls, tokens, bytes
// of the calls record, the disk's free-space floor), the
// prices that give cost, and the budgets a run's tries share (a task's, an experiment's). One
// parser for the extension's settings and the command line; the loop hands the result to every
// agent driver it makes.
import type { Budget } from '../gateway/budget';
import { readModelPrices, type ModelPrices } from '../gateway/prices';
import type { RecordedCall } from '../gateway/replay-answer';
import { DEFAULT_MIN_FREE_DISK_MB } from '../util/free-space';
import { readChoice, readCount, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import type { AgentRole } from './agent-driver';

/**
 * What a confined agent step may reach: only its model, through the harness's gateway (a network
 * namespace of its own with only `lo`, the gateway's socket and a forwarder to it), or the
 * network as a plain process has it (a CLI that must reach other hosts, a login-based one).
 */
export const AGENT_NETWORK_CHOICES = ['model-only', 'open'] as const;
export type AgentNetworkChoice = (typeof AGENT_NETWORK_CHOICES)[number];

/** A CLI that calls its model more often than this in one try is looping: the try ends. */
const DEFAULT_MAX_CALLS_PER_TRY = 1000;

/**
 * Bytes one try's calls record may take, and all tries of a step together: 256 MiB. A call's line
 * holds its whole request (the conversation so far) and answer, up to 4 MiB; an honest long try
 * of a few hundred calls at 100k-200k tokens of context writes tens to a couple of hundred MB,
 * while a looping or hostile one reached 4 GB at the call cap.
 */
const DEFAULT_MAX_CALLS_BYTES_PER_TRY = 256 * 1024 * 1024;

/**
 * Where a replayed run finds the model's answers: the recorded calls of a try (none when the
 * recorded try made no model call), or undefined when the recording has no such try.
 */
export type ReplaySource = (at: { iteration: number; role: AgentRole; try: number }) => Promise<readonly RecordedCall[] | undefined>;

export interface ModelAccess {
  network: AgentNetworkChoice;
  /** Calls one try may make through the gateway (0: no bound). */
  maxCallsPerTry: number;
  /** Tokens (input + output) all tries of one step may spend together (0: no bound). */
  maxTokensPerStep: number;
  /** Bytes one try's calls record may take, and all tries of one step together (0: no bound). */
  maxCallsBytesPerTry: number;
  /** Below this many bytes free, a step does not start and no record line is written: the run stops, "disk nearly full" (0: no floor). */
  minFreeDiskBytes: number;
  prices: ModelPrices;
  /** A model call whose upstream sends nothing for this long is ended, and the try with it (sweci.agents.callTimeoutSeconds). */
  callTimeoutMs: number;
  /** Budgets every try of the run draws from (the CLI's --max-cost-per-task, --max-cost). */
  budgets?: readonly Budget[];
  /** Answer every call from a recording instead of the upstream (sweci run --replay-from). */
  replay?: ReplaySource;
}

/** Five minutes without a byte: the model is not coming back. */
export const DEFAULT_CALL_TIMEOUT_SEC = 300;

export const DEFAULT_MODEL_ACCESS: ModelAccess = {
  network: 'model-only',
  maxCallsPerTry: DEFAULT_MAX_CALLS_PER_TRY,
  maxTokensPerStep: 0,
  maxCallsBytesPerTry: DEFAULT_MAX_CALLS_BYTES_PER_TRY,
  minFreeDiskBytes: DEFAULT_MIN_FREE_DISK_MB * 1024 * 1024,
  prices: {},
  callTimeoutMs: DEFAULT_CALL_TIMEOUT_SEC * 1000,
};

export function readModelAccess(read: SettingReader, label: SettingLabel = settingName): ModelAccess {
  return {
    // The first choice, model-only, is the default.
    network: readChoice(read, label, 'agents.network', AGENT_NETWORK_CHOICES),
    maxCallsPerTry: Math.floor(readCount(read, label, 'agents.maxCallsPerTry', DEFAULT_MAX_CALLS_PER_TRY, 'calls')),
    maxTokensPerStep: Math.floor(readCount(read, label, 'agents.maxTokensPerStep', 0, 'tokens')),
    maxCallsBytesPerTry: Math.floor(readCount(read, label, 'agents.maxCallsBytesPerTry', DEFAULT_MAX_CALLS_BYTES_PER_TRY, 'bytes')),
    minFreeDiskBytes: Math.floor(readCount(read, label, 'agents.minFreeDiskMb', DEFAULT_MIN_FREE_DISK_MB, 'MB') * 1024 * 1024),
    prices: readModelPrices(read, label),
    callTimeoutMs: readCount(read, label, 'agents.callTimeoutSeconds', DEFAULT_CALL_TIMEOUT_SEC, 'seconds', 1) * 1000,
  };
}
