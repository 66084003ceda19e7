// The language server words each requirement diagnostic again through its l10n bundle
// (src/server/diagnostic-text.ts); without a bundle that must be the core's English, which the
// loop and the CLI print, for every wording.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as l10n from '@vscode/l10n';
import type { Diagnostic } from '../../../src/core/requirement/diagnostic';
import { DIAGNOSTIC_WORDING, worded, type WordingId } from '../../../src/core/requirement/diagnostic-wording';
import { diagnosticText } from '../../../src/server/diagnostic-text';

const at = (text: ReturnType<typeof worded>): Diagnostic => ({ ...text, line: 1, column: 1, severity: 'warning', code: 'empty-field' });

test('without a bundle every wording reads as the core words it, arguments in place', () => {
  for (const id of Object.keys(DIAGNOSTIC_WORDING) as WordingId[]) {
    const text = worded(id, 'A', 2, '<c>', 'D');
    assert.doesNotMatch(text.message, /\{\d\}/, `${id}: every placeholder filled`);
    assert.equal(diagnosticText(at(text)), text.message, id);
  }
  assert.equal(worded('emptyField', '3', 'description').message, 'Requirement 3: <description> is empty.');
});

test('with a bundle the message is translated; one without a wording stays as the core wrote it', () => {
  l10n.config({ contents: { 'Requirement {0}: <{1}> is empty.': 'ANFORDERUNG {0}: <{1}> IST LEER.' } });
  try {
    assert.equal(diagnosticText(at(worded('emptyField', '3', 'description'))), 'ANFORDERUNG 3: <description> IST LEER.');
    assert.equal(diagnosticText({ message: 'x.xml was not written.', line: 1, column: 1, severity: 'error', code: 'missing-file' }), 'x.xml was not written.');
  } finally {
    l10n.config({ contents: {} });
  }
});
