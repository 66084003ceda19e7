// Every agent preset, in the order settings and views list them, and the tables derived from the
// list. Adding a preset is its folder (presets/<id>/: preset.ts, one AgentPreset, and its readers)
// and one line in PRESETS; package.json's agent choices must name it too (preset-manifest.test.ts
// holds them to this list; new-preset.test.ts proves nothing else needs touching).
import type { AgentPreset } from './agent-preset';
import { aider } from './aider/preset';
import { claudeCode } from './claude-code/preset';
import { codex } from './codex/preset';
import { gemini } from './gemini/preset';
import { iflow } from './iflow/preset';
import { opencode } from './opencode/preset';
import { qwen } from './qwen/preset';

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
