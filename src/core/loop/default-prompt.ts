// The loop's default prompts: the built-in templates (or the role's own template file) with
// the task's real paths.
import type { AgentRole, AgentSettings } from '../agents/agent-driver';
import { loadPromptTemplate, promptPathsFor, renderPrompt } from '../agents/prompts';
import { taskLayout } from '../workspace/layout';

export async function renderDefaultPrompt(role: AgentRole, taskDir: string, settings: AgentSettings): Promise<string> {
  const template = settings.kind !== 'human' && settings.promptTemplateFile ? await loadPromptTemplate(settings.promptTemplateFile) : undefined;
  return renderPrompt(role, promptPathsFor(taskLayout(taskDir)), template);
}
