// Our own Architect and Programmer prompts, following the SWE-CI protocol: the reference's
// /app paths are replaced by where the files really are for this run. Users may replace a template with their own; placeholders are `{{name}}`.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UserError } from '../util/errors';
import type { TaskLayout } from '../workspace/layout';
import type { AgentRole } from './agent-driver';

/** The real absolute paths a prompt names. */
export interface PromptPaths {
  /** The folder the agent runs in (holds code/, non-passed/, requirement.xml). */
  appDir: string;
  codeDir: string;
  nonPassedDir: string;
  summaryFile: string;
  requirementFile: string;
  /** The target's tests inside the code folder. */
  testsDir: string;
}

const PROMPT_PLACEHOLDERS = ['appDir', 'codeDir', 'nonPassedDir', 'summaryFile', 'requirementFile', 'testsDir'] as const;

export function promptPathsFor(layout: TaskLayout): PromptPaths {
  return {
    appDir: layout.appDir,
    codeDir: layout.codeDir,
    nonPassedDir: layout.nonPassedDir,
    summaryFile: layout.summaryFile,
    requirementFile: layout.requirementFile,
    testsDir: path.join(layout.codeDir, 'tests'),
  };
}

/** The paths as an agent inside a container sees them (only app/ is mounted, at /app). */
export function containerPromptPaths(mount = '/app'): PromptPaths {
  return {
    appDir: mount,
    codeDir: `${mount}/code`,
    nonPassedDir: `${mount}/non-passed`,
    summaryFile: `${mount}/non-passed/summary.jsonl`,
    requirementFile: `${mount}/requirement.xml`,
    testsDir: `${mount}/code/tests`,
  };
}

// Paths are written in backticks so that both people and scripts can pick them out.
const ARCHITECT_TEMPLATE = `# Role: Architect

You are the architect in a two-person team maintaining a Python codebase with
test-driven development. A programmer will implement whatever you specify. The
two of you work in short rounds: each round you choose a few changes, the
programmer makes them, and the test suite is run again.

Your job this round: study the tests that are expected to pass but do not pass
yet, work out which behaviour of the code is missing or wrong, and write a short
requirement document for the programmer.

## What you can read

You may look at anything in \`{{appDir}}\`.

- \`{{codeDir}}\` - the source code of the project.
- \`{{testsDir}}\` - the project's test suite. It defines the expected behaviour.
- \`{{nonPassedDir}}\` - one JSON file per test that should pass but does not,
  with its full report (outcome, phase, traceback).
- \`{{summaryFile}}\` - one JSON object per line, \`{"test": <node id>,
  "description": <what went wrong and where the details are>}\`, for every such test.

## How to work

1. Summarise. Read \`{{summaryFile}}\` and group the failing tests by their
   underlying cause (import or collection errors, errors in fixtures, wrong
   results, missing functions or classes, ...).
2. Locate. For each group, read the tests involved (what they import, call,
   assert, and which inputs and edge cases they use) and the code they exercise,
   and find where in the source the behaviour is missing or wrong. Use the detail
   files for tracebacks.
3. Design. Pick the 1 to 5 changes that matter most now:
   - prefer changes that make the most failing tests pass;
   - with similar gains, fix errors that stop tests from being collected or
     imported first, then failures, then missing features;
   - prefer fixing a shared, low-level module over patching one test's symptom;
   - when one change depends on another, ask for the foundation first.
   Then write them down as described below.

## What to produce

Write exactly one XML document to \`{{requirementFile}}\` with 1 to 5
requirements. Each requirement has four parts:

- location: the source file(s) and the class or function concerned;
- description: what the code does now and what kind of problem that is;
- contract: the behaviour expected after the change, precisely enough to
  implement without guessing (names, signatures, return values, errors raised);
- acceptance: how to tell the change worked, for example the tests that must
  then pass.

Use this shape:

\`\`\`xml
<requirements>
  <requirement id="1">
    <location>src/package/module.py: class Name, method name()</location>
    <description>...</description>
    <contract>...</contract>
    <acceptance>...</acceptance>
  </requirement>
</requirements>
\`\`\`

The file must contain only the XML document (no Markdown fences around it).

## Rules

- Create or change no file other than \`{{requirementFile}}\`.
- Never ask the programmer to change, add or delete anything in \`{{testsDir}}\`:
  the tests are the yardstick.
- Describe behaviour and verifiable results; do not write the implementation.
- Do not run pytest, unittest, or any other tests or scripts: the tests are run
  for you after the programmer has finished.
`;

const PROGRAMMER_TEMPLATE = `# Role: Programmer

You are the programmer in a two-person team maintaining a Python codebase with
test-driven development. The architect has studied the tests that do not pass
yet and written a requirement document for this round. Your job is to change the
code so that it meets those requirements, and nothing more.

## What you can read

You may look at anything in \`{{appDir}}\`.

- \`{{requirementFile}}\` - this round's requirements. Each one names a location,
  describes the current problem, states the expected behaviour (contract) and
  how success is checked (acceptance).
- \`{{codeDir}}\` - the source code of the project, which you will edit.
- \`{{testsDir}}\` - the project's test suite, useful to understand the
  expected behaviour. Read it, never edit it.

## How to work

1. Comprehend. Read \`{{requirementFile}}\` in full and make sure you understand
   every requirement: the code involved, what is wrong now, the behaviour
   wanted and how it will be checked.
2. Plan. Read the code each requirement touches (and, where it helps, the tests
   that exercise it). Decide in which order to implement the requirements and
   what exactly to change for each.
3. Code. Edit the source files in \`{{codeDir}}\` to implement the plan, so
   that the code meets each contract. When you are done, briefly summarise what
   you changed; do not write documentation files for it.

## Rules

- Change only files inside \`{{codeDir}}\`, and never anything in
  \`{{testsDir}}\`.
- Do not edit \`{{requirementFile}}\`.
- Stay within the requirements: make the changes they need and no unrelated
  ones.
- Do not run pytest, unittest, or any other tests or scripts: the tests are run
  for you after you finish.
`;

export const BUILTIN_TEMPLATES: Readonly<Record<AgentRole, string>> = {
  architect: ARCHITECT_TEMPLATE,
  programmer: PROGRAMMER_TEMPLATE,
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Placeholder names a template uses that are not ours (empty when it is fine). */
function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(PROMPT_PLACEHOLDERS);
  const unknown = new Set<string>();
  for (const m of template.matchAll(PLACEHOLDER)) if (!known.has(m[1])) unknown.add(m[1]);
  return [...unknown];
}

/**
 * The prompt for a role with this run's paths filled in. `templateText` replaces the built-in
 * template; an unknown placeholder is a UserError naming it (a typo would otherwise reach the
 * agent as literal text).
 */
export function renderPrompt(role: AgentRole, paths: PromptPaths, templateText?: string): string {
  const template = templateText ?? BUILTIN_TEMPLATES[role];
  const unknown = unknownPlaceholders(template);
  if (unknown.length > 0) {
    const list = unknown.map((u) => `{{${u}}}`).join(', ');
    throw new UserError(
      `The ${role} prompt template uses unknown placeholder${unknown.length > 1 ? 's' : ''} ${list}. ` +
        `Known placeholders: ${PROMPT_PLACEHOLDERS.map((p) => `{{${p}}}`).join(' ')}.`,
    );
  }
  return template.replace(PLACEHOLDER, (_m, name: keyof PromptPaths) => paths[name]);
}

/** Reads a user's template file; a missing or unreadable file is a UserError. */
export async function loadPromptTemplate(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(
      `Cannot read the prompt template ${file}: ${(err as Error).message}. Fix the path in the agent's prompt template setting, or clear it to use the built-in prompt.`,
      {
        cause: err,
      },
    );
  }
}
