// Every agent preset, in the order settings and views list them, and the tables derived from the
// list. Adding a preset is its file (presets/<id>.ts, one AgentPreset) and one line in PRESETS;
// package.json's agent choices must name it too (test/unit/agents/preset-manifest.test.ts holds
// them to this list).
import type { AgentPreset } from './agent-preset';
import { aider } from './aider';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { gemini } from './gemini';
import { iflow } from './iflow';
import { opencode } from './opencode';
import { qwen } from './qwen';

export const PRESETS = [claudeCode, codex, gemini, qwen, opencode, iflow, aider] as const;

export type AgentPresetId = (typeof PRESETS)[number]['id'];

/** The presets' ids, in order. */
export const AGENT_PRESETS: readonly AgentPresetId[] = PRESETS.map((p) => p.id);

const BY_ID = new Map<string, AgentPreset<AgentPresetId>>(PRESETS.map((p) => [p.id, p]));

export function presetById(id: AgentPresetId): AgentPreset<AgentPresetId> {
  const preset = BY_ID.get(id);
  if (!preset) throw new Error(`No agent preset "${id}".`);
  return preset;
}

export interface PresetInfo {
  id: AgentPresetId;
  label: string;
  /** Executable looked up on PATH unless the settings name another. */
  executable: string;
  /** How to install it, for the "not found" message. */
  install: string;
  /** The format its output is read in: its own. */
  usageFormat: AgentPresetId;
}

export const PRESET_INFO: Readonly<Record<AgentPresetId, PresetInfo>> = Object.fromEntries(
  PRESETS.map((p) => [p.id, { id: p.id, label: p.label, executable: p.executable, install: p.install, usageFormat: p.id }]),
) as Record<AgentPresetId, PresetInfo>;
