// The brain of the conformance tests: plays SWE-CI's two roles on a task the way a model would,
// through whatever tools the CLI offers, one tool call per reply. The Architect reads the
// non-passed summary with a shell command, then writes the scenario's requirement.xml; the
// Programmer runs a command that needs the shell, then reads and writes each of the scenario's
// files in the code folder (CLIs refuse to overwrite a file the model has not read). Each reply is labelled with its role, so usage can be summed per role.
// The step is read from the conversation (tool results so far), so the brain keeps no state.
import { promptText, toolResults, type Brain, type Conversation, type Reply, type ToolCall } from './conversation';
import { readCall, shellCall, writeCall } from './tool-kit';

export interface TaskScenario {
  /** The requirement.xml the Architect writes. */
  requirementXml: string;
  /** Files the Programmer writes, relative to the code folder. */
  files: Record<string, string>;
  /** Replies with this HTTP error instead (a refused key, a broken server). */
  httpError?: { status: number; message: string };
}

/** The first backticked absolute path in the prompt that ends with `suffix`. */
export function pathIn(prompt: string, suffix: string): string | undefined {
  for (const m of prompt.matchAll(/`(\/[^`\s]+)`/g)) if (m[1].endsWith(suffix)) return m[1];
  return undefined;
}

export function roleOf(c: Conversation): 'architect' | 'programmer' | 'check' | undefined {
  const text = `${c.system}\n${promptText(c)}`;
  if (/# SWE-CI agent check/.test(text)) return 'check';
  if (/# Role: Architect/.test(text)) return 'architect';
  if (/# Role: Programmer/.test(text)) return 'programmer';
  return undefined;
}

type Role = NonNullable<ReturnType<typeof roleOf>>;

/** One turn of a role's conversation: its prompt, its step (tool results so far), and its two kinds of reply. */
export function roleTurn(c: Conversation, role: Role) {
  const say = (text: string): Reply => ({ actions: [{ kind: 'text', text }], label: role });
  const call = (tool: ToolCall | undefined): Reply =>
    tool ? { actions: [{ kind: 'tool', call: tool }], label: role } : say(`no usable tool among: ${c.tools.map((t) => t.name).join(', ')}`);
  return { prompt: promptText(c), step: toolResults(c).length, say, call };
}

/** A side call (titles, routers, summaries) or anything that is not a SWE-CI role with tools: a short answer, no tools. */
export function sideReply(role: Role | undefined): Reply {
  return { actions: [{ kind: 'text', text: 'SWE-CI task' }], ...(role ? { label: `${role}-side` } : {}) };
}

/** SWE-CI: Check Agents' scratch step: write the one file it asks for. */
export function checkReply(c: Conversation, turn: ReturnType<typeof roleTurn>): Reply {
  const file = pathIn(turn.prompt, 'sweci-check.txt');
  if (!file) return turn.say('the check prompt names no sweci-check.txt');
  return turn.step === 0 ? turn.call(writeCall(c, file, 'ok\n')) : turn.say('Done.');
}

export function taskBrain(scenario: TaskScenario): Brain {
  return (c: Conversation): Reply => {
    const role = roleOf(c);
    if (!role || c.tools.length === 0) return sideReply(role);
    if (scenario.httpError) return { actions: [], httpError: scenario.httpError, label: role };
    const turn = roleTurn(c, role);
    const { prompt, step, say, call } = turn;
    if (role === 'check') return checkReply(c, turn);
    if (role === 'architect') {
      const summary = pathIn(prompt, 'summary.jsonl');
      const requirement = pathIn(prompt, 'requirement.xml');
      if (!summary || !requirement) return say('the prompt names no summary.jsonl or requirement.xml');
      if (step === 0) return call(shellCall(c, `cat '${summary}'`));
      if (step === 1) return call(writeCall(c, requirement, scenario.requirementXml));
      return say('requirement.xml is written.');
    }
    const code = pathIn(prompt, '/code');
    if (!code) return say('the prompt names no code folder');
    const files = Object.entries(scenario.files).sort(([a], [b]) => a.localeCompare(b));
    if (step === 0) return call(shellCall(c, 'python3 -c "print(6 * 7)"', code));
    // Two steps per file where the CLI has a read tool: read it, then write it.
    const perFile = readCall(c, '/') ? 2 : 1;
    const index = Math.floor((step - 1) / perFile);
    if (index < files.length) {
      const [rel, content] = files[index];
      const file = `${code}/${rel}`;
      return call(perFile === 2 && (step - 1) % 2 === 0 ? readCall(c, file) : writeCall(c, file, content));
    }
    return say('The requirements are implemented.');
  };
}
