// What defines an agent preset: one object per CLI (presets/<id>/preset.ts) holding everything the
// harness knows about it — how to find and install it, the protocol it speaks, where it keeps its
// login, its argv, what it writes into its private home for an endpoint, what it may do, and how
// to read its usage and its errors from its output. presets/index.ts lists them; everything else
// looks a preset up there.
import type { AgentUsage } from '../reading/agent-usage';
import type { EventReader } from '../reading/event-turns';
import type { Endpoint, WireProtocol } from '../wire-protocol';

/** What a preset's argv may use for one try. */
export interface PresetCommandContext {
  /** The rendered prompt. */
  prompt: string;
  /** The prompt, already written to this file. */
  promptFile: string;
  /** The agent's working directory (the task's app/ folder), as the agent sees it. */
  cwd: string;
  /** The model, trimmed; undefined: the CLI's default. */
  model?: string | undefined;
  /** The user's extra arguments: after ours, so they can add to or override them. */
  extraArgs?: readonly string[];
  /** The step runs in a sandbox or a container: presets then accept every action (as the reference's agents do). */
  confined?: boolean;
  /** A model endpoint is configured: presets that name providers use ours (PROVIDER_ID). */
  endpoint?: boolean;
}

/** A preset's argv after the executable, and how its prompt gets in. No shell ever runs it. */
export interface PresetArgv {
  args: string[];
  /** Text written to the agent's stdin (then closed); undefined: stdin is not connected. */
  stdin?: string;
  /**
   * How the prompt reaches the agent: on stdin, as the path of the prompt file, or as the
   * prompt text in one argv element (still no shell: the element is passed as is).
   */
  promptVia: 'stdin' | 'file' | 'argv';
}

export interface PresetSetupContext {
  endpoint?: Endpoint;
  model?: string;
  /** The step runs in a sandbox or a container. */
  confined: boolean;
  /** The agent's working folder as it sees it. */
  cwd: string;
  /** The agent's private home as it sees it. */
  home: string;
}

/** What a preset writes into its agent's private home and environment. */
export interface PresetSetup {
  env: Record<string, string>;
  /** Files relative to the agent's home. */
  files: { path: string; content: string }[];
}

export interface AgentPreset<Id extends string = string> {
  /** The value of sweci.<role>.agent, and the usage format a custom command may name. */
  readonly id: Id;
  /** Its name for people: views, logs, messages. */
  readonly label: string;
  /** Executable looked up on PATH unless the settings name another. */
  readonly executable: string;
  /** How to install it, for the "not found" message. */
  readonly install: string;
  /** The protocol it speaks to a model endpoint. */
  readonly protocol: WireProtocol;
  /** The variables its CLI reads its key from when it calls its provider itself (no gateway). */
  readonly apiKeys: readonly string[];
  /**
   * Where the CLI keeps its login, relative to the home: copied into the agent's home when no
   * endpoint is configured, so the CLI's own login works. Only these; never the whole folder
   * (histories and caches can be large and hold other projects' code).
   */
  readonly loginFiles: readonly string[];
  /** With an endpoint it cannot work without a model named: a run is refused before it starts. */
  readonly needsModel?: boolean;
  /** What it may do when its step is not confined (confined, every action is accepted). */
  readonly unconfinedPermissions: string;
  /** Its argv for one try. */
  command(ctx: PresetCommandContext): PresetArgv;
  /** Its home and environment: the endpoint in the CLI's own terms, and what keeps it headless and offline-safe. */
  setup(ctx: PresetSetupContext): PresetSetup;
  /** Token usage from its output; undefined when it reports none. */
  readUsage(stdout: string, stderr: string): AgentUsage | undefined;
  /** The error its output reports, whatever its exit code; undefined when it reports none (or has no form for one). */
  readError?(stdout: string, stderr: string): string | undefined;
  /** Its event stream as a transcript (a try's log); absent: it prints none. */
  readonly events?: EventReader;
  /**
   * How output of unknown origin (a custom command's 'auto') is tried with this preset's readers:
   * `rank` orders the presets, most specific markers first; `error` says whether its error reader
   * is specific enough for output it did not write. Absent: never tried (its forms are another
   * preset's, read there).
   */
  readonly auto?: { readonly rank: number; readonly error: boolean };
}

/** What a confined preset may do, whichever it is. */
export const CONFINED_PERMISSIONS = 'every action accepted (confined)';

/** The unconfined permissions of presets held to editing files. */
export const FILE_EDITS_ONLY = 'file edits only: shell commands are denied (not confined)';

/** `[flag, model]`, or nothing when no model is set. */
export const modelArgs = (flag: string, model: string | undefined): string[] => (model ? [flag, model] : []);

/** A prompt passed as one argv element must not be taken for an option. */
export function promptArg(prompt: string): string {
  return prompt.startsWith('-') ? ` ${prompt}` : prompt;
}

/** A JSON file's content, as CLIs write their settings. */
export const jsonFile = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

export const tomlString = (s: string): string => JSON.stringify(s);
