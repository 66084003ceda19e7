// The requirement checks' messages in the editor's display language. The core words each
// diagnostic in English and keeps its wording (core/requirement/diagnostic-wording.ts); here each
// wording is a literal l10n.t call, so `npm run l10n` puts it in the bundle (a call on a variable
// would not be collected). The type refuses a wording without its call;
// test/unit/server/diagnostic-text.test.ts checks each call's English is the core's.
import * as l10n from '@vscode/l10n';
import type { Diagnostic } from '../core/requirement/diagnostic';
import type { WordingId } from '../core/requirement/diagnostic-wording';

type Args = readonly string[];

const TEXT: { readonly [K in WordingId]: (a: Args) => string } = {
  tooLarge: (a) => l10n.t('requirement.xml has {0} characters; a requirement document is at most {1}. Write 1 to 5 short requirements.', ...a),
  empty: () => l10n.t('requirement.xml is empty: it must hold one XML document with 1 to 5 requirements.'),
  markdownFence: () => l10n.t('requirement.xml is wrapped in a Markdown code fence (```): write the bare XML document.'),
  notWellFormed: (a) => l10n.t('Not well-formed XML: {0}', ...a),
  noRoot: () => l10n.t('requirement.xml has no root element.'),
  rootIsItem: (a) => l10n.t('<{0}> holds the fields itself; it is read as a single requirement. Put each requirement in its own element under the root.', ...a),
  noItems: (a) =>
    l10n.t('No requirement found under <{0}>: each requirement is an element holding <location>, <description>, <contract> and <acceptance>.', ...a),
  tooManyItems: (a) => l10n.t('{0} requirements: the protocol allows at most {1} per iteration.', ...a),
  duplicateField: (a) => l10n.t('Requirement {0} has more than one <{1}>; only the first is used.', ...a),
  emptyField: (a) => l10n.t('Requirement {0}: <{1}> is empty.', ...a),
  placeholderField: (a) => l10n.t("Requirement {0}: <{1}> still holds the skeleton's hint; write yours in its place.", ...a),
  missingField: (a) => l10n.t('Requirement {0} (<{1}>) has no {2}.', ...a),
  missingLocationFile: (a) =>
    l10n.t(
      'Requirement {0}: {1} does not exist under app/code. If the requirement creates it, write new="true" on <location> or "(new)" after the path.',
      ...a,
    ),
  unknownTest: (a) => l10n.t("Requirement {0}: {1} is not a known test (neither in summary.jsonl nor found in app/code's test files).", ...a),
  unknownTestNear: (a) =>
    l10n.t("Requirement {0}: {1} is not a known test (neither in summary.jsonl nor found in app/code's test files). Did you mean {2}?", ...a),
  duplicateRequirementAt: (a) => l10n.t('Requirement {0} (item {1}) repeats requirement {2} (item {3}).', ...a),
  duplicateRequirement: (a) => l10n.t('Requirement {0} repeats requirement {1}.', ...a),
};

/** A diagnostic's message as the editor shows it; one the core worded without an id stays English. */
export const diagnosticText = (d: Diagnostic): string => (d.wording ? TEXT[d.wording.id](d.wording.args) : d.message);
