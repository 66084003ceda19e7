// The loop's default prompts: the built-in templates (or the role's own template file) with
// the task's real paths.
import { existsSync } from 'node:fs';
import type { AgentRole, AgentSettings } from '../agents/agent-driver';
import { containerPromptPaths, loadPromptTemplate, promptPathsFor, renderPrompt } from '../agents/prompts';
import { readTaskRecord } from '../workspace/task-record';
import type { TaskFolder } from '../workspace/task-folder';

export async function renderDefaultPrompt(role: AgentRole, task: TaskFolder, settings: AgentSettings): Promise<string> {
  const template = settings.kind !== 'human' && settings.promptTemplateFile ? await loadPromptTemplate(settings.promptTemplateFile) : undefined;
  // An agent in a container sees the reference's /app paths; one on this machine, the real ones.
  const inContainer = settings.kind !== 'human' && settings.runIn === 'container';
  let prompt = renderPrompt(role, inContainer ? containerPromptPaths() : promptPathsFor(task), template);
  if (role === 'architect' && settings.kind !== 'human' && settings.problemStatement) prompt += await problemStatementSection(task);
  if (!existsSync(task.memoryDir)) return prompt;
  const memory = inContainer ? `${containerPromptPaths().appDir}/memory` : task.memoryDir;
  return `${prompt}\n## Memory\n\nThis task is one of a sequence on the same repository. \`${memory}\` holds notes kept\nfrom the earlier tasks; read them, and add what will help with the next tasks.\nWhat you leave there is carried to the next task.\n`;
}

/** A SWE-bench-style instance's issue text, for an Architect asked to read it (empty for other tasks). */
async function problemStatementSection(task: TaskFolder): Promise<string> {
  const source = (await readTaskRecord(task))?.task.source;
  const text = source?.kind === 'swe-bench' ? source.instance.problemStatement?.trim() : undefined;
  if (!text) return '';
  return `\n## The issue behind the failing tests\n\nThe failing tests come from a fix for this issue report. It may help you see what the tests\nexpect; the tests remain what counts.\n\n<issue>\n${text}\n</issue>\n`;
}
