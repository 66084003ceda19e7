// The per-role agent settings (sweci.architect.*, sweci.programmer.*), read by the core's parser.
import * as vscode from 'vscode';
import type { AgentRole, AgentSettings } from '../../core/agents/agent-driver';
import { readAgentSettings } from '../../core/agents/agent-settings';

export function agentSettings(role: AgentRole, scope?: vscode.Uri): AgentSettings {
  const cfg = vscode.workspace.getConfiguration('sweci', scope);
  return readAgentSettings(role, (key) => cfg.get(key));
}
