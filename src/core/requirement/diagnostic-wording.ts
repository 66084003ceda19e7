// Every message the requirement checks word, by id: the English, with {0}, {1}… for what varies.
// A diagnostic carries its English `message` (what the loop and the CLI print) and its wording,
// from which the language server words it again in the editor's display language
// (src/server/diagnostic-text.ts, whose literal l10n.t calls put these in the bundle).

export const DIAGNOSTIC_WORDING = {
  tooLarge: 'requirement.xml has {0} characters; a requirement document is at most {1}. Write 1 to 5 short requirements.',
  empty: 'requirement.xml is empty: it must hold one XML document with 1 to 5 requirements.',
  markdownFence: 'requirement.xml is wrapped in a Markdown code fence (```): write the bare XML document.',
  notWellFormed: 'Not well-formed XML: {0}',
  noRoot: 'requirement.xml has no root element.',
  rootIsItem: '<{0}> holds the fields itself; it is read as a single requirement. Put each requirement in its own element under the root.',
  noItems: 'No requirement found under <{0}>: each requirement is an element holding <location>, <description>, <contract> and <acceptance>.',
  tooManyItems: '{0} requirements: the protocol allows at most {1} per iteration.',
  duplicateField: 'Requirement {0} has more than one <{1}>; only the first is used.',
  emptyField: 'Requirement {0}: <{1}> is empty.',
  placeholderField: "Requirement {0}: <{1}> still holds the skeleton's hint; write yours in its place.",
  missingField: 'Requirement {0} (<{1}>) has no {2}.',
  missingLocationFile:
    'Requirement {0}: {1} does not exist under app/code. If the requirement creates it, write new="true" on <location> or "(new)" after the path.',
  unknownTest: "Requirement {0}: {1} is not a known test (neither in summary.jsonl nor found in app/code's test files).",
  unknownTestNear: "Requirement {0}: {1} is not a known test (neither in summary.jsonl nor found in app/code's test files). Did you mean {2}?",
  duplicateRequirementAt: 'Requirement {0} (item {1}) repeats requirement {2} (item {3}).',
  duplicateRequirement: 'Requirement {0} repeats requirement {1}.',
} as const;

export type WordingId = keyof typeof DIAGNOSTIC_WORDING;

export interface Wording {
  id: WordingId;
  args: readonly string[];
}

/** A wording's English: each {n} replaced by its argument (once: an argument's own braces stay). */
export function englishOf(wording: Wording): string {
  return DIAGNOSTIC_WORDING[wording.id].replace(/\{(\d+)\}/g, (whole, n: string) => wording.args[Number(n)] ?? whole);
}

/** A diagnostic's message and the wording it came from. */
export function worded(id: WordingId, ...args: ReadonlyArray<string | number>): { message: string; wording: Wording } {
  const wording = { id, args: args.map(String) };
  return { message: englishOf(wording), wording };
}
