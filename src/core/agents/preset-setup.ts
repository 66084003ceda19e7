// What a preset writes into its agent's private home and environment (its `setup`, presets/<id>/preset.ts)
// and what it may do. A confined step (sandbox or container) accepts every action, as the
// reference's agents do in their container; an unconfined one stays restricted to editing files.
import { CONFINED_PERMISSIONS, type PresetSetup, type PresetSetupContext } from './presets/agent-preset';
import { presetById, type AgentPresetId } from './presets';

export type { PresetSetup, PresetSetupContext } from './presets/agent-preset';
export { PROVIDER_ID } from './wire-protocol';

/** What the preset may do in this step, for the Task view, logs and the README. */
export function presetPermissions(preset: AgentPresetId, confined: boolean): string {
  return confined ? CONFINED_PERMISSIONS : presetById(preset).unconfinedPermissions;
}

export function presetSetup(preset: AgentPresetId, ctx: PresetSetupContext): PresetSetup {
  return presetById(preset).setup(ctx);
}
