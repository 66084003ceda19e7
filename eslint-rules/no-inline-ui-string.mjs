// ESLint rule: user-facing text must go through VS Code's l10n (`vscode.l10n.t` in the extension,
// `l10n.t` from @vscode/l10n in the webviews and the language server), so it can be translated.
// It is a heuristic over the syntax tree, not a type check: it flags a string literal or a
// template with letters in its fixed parts when it sits where the UI shows text, namely
// - an argument of show{Information,Warning,Error}Message (the message and every button),
//   the title of createWebviewPanel, the name of createOutputChannel, the title of the
//   extension's withCancellableProgress (progress.ts), the label of new *TreeItem, the text a
//   MarkdownString (a tooltip, a hover) is given through appendText or appendMarkdown;
// - an object property named like UI text (label, description, detail, tooltip, title,
//   placeHolder, prompt, openLabel, saveLabel, validationMessage, aria-label) anywhere, which
//   covers QuickPick items and options, withProgress's title and input boxes;
// - an assignment to such a property or to textContent (`item.tooltip = '…'`);
// - in the webviews, el()'s text argument and setAttribute('title' | 'aria-label' | 'placeholder').
// A string without a letter ('', '—', '$(sync~spin) ') or that is a file's name ('summary.jsonl')
// is not text.
// It follows `a ? 'x' : 'y'`, `a ?? 'x'` and `'x' + y`, but not a string held in a variable or
// returned by a helper first, text built by a function the UI calls later, or Markdown built
// piece by piece: those are found by review. A call to l10n.t (or any call) ends the search, so
// `l10n.t('Run {0}', name)` passes.
const UI_KEYS = new Set([
  'label',
  'description',
  'detail',
  'tooltip',
  'title',
  'placeHolder',
  'placeholder',
  'prompt',
  'openLabel',
  'saveLabel',
  'validationMessage',
  'aria-label',
  'textContent',
]);
const MESSAGE_CALLS = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
const ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt']);

/** The name a call or `new` is made through: `f`, `a.b.f` -> f. */
function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

function keyName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

/** A file's name ('summary.jsonl', 'app/requirement.xml') reads the same in every language. */
const FILE_NAME = /^[\w./-]+\.[A-Za-z]\w*$/;

/** Whether a literal's text is words: it has a letter (not '' or '—') and is not a file's name. */
const isWords = (text) => {
  const words = text.replace(/\$\([\w~-]+\)/g, ''); // a codicon, $(refresh), is no word
  return /\p{L}/u.test(words) && !FILE_NAME.test(words.trim());
};

/** The literal parts of `node` that carry words. */
function inlineTexts(node, out = []) {
  if (!node) return out;
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string' && isWords(node.value)) out.push(node);
      break;
    case 'TemplateLiteral':
      if (node.quasis.some((q) => isWords(q.value.cooked ?? ''))) out.push(node);
      break;
    case 'ConditionalExpression':
      inlineTexts(node.consequent, out);
      inlineTexts(node.alternate, out);
      break;
    case 'LogicalExpression':
      inlineTexts(node.left, out);
      inlineTexts(node.right, out);
      break;
    case 'BinaryExpression':
      if (node.operator === '+') {
        inlineTexts(node.left, out);
        inlineTexts(node.right, out);
      }
      break;
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      inlineTexts(node.expression, out);
      break;
  }
  return out;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noInlineUiString = {
  meta: {
    type: 'problem',
    docs: { description: 'User-facing text goes through l10n.t so it can be translated' },
    schema: [],
    messages: {
      inline:
        'User-facing text "{{text}}" is not localized: wrap it in l10n.t(…) (vscode.l10n.t in the extension, @vscode/l10n in webviews and the server), then run npm run l10n.',
    },
  },
  create(context) {
    const report = (node) => {
      for (const text of inlineTexts(node)) {
        const shown = context.sourceCode.getText(text).slice(0, 60);
        context.report({ node: text, messageId: 'inline', data: { text: shown } });
      }
    };
    const onCall = (node) => {
      const name = calleeName(node.callee);
      if (!name) return;
      if (MESSAGE_CALLS.has(name)) {
        // The message and the buttons; an options object ({ modal, detail }) is seen as properties.
        for (const arg of node.arguments) report(arg);
      } else if (name === 'createWebviewPanel') report(node.arguments[1]);
      else if (name === 'createOutputChannel' || name === 'withCancellableProgress' || name === 'showError') report(node.arguments[0]);
      else if (name === 'el') report(node.arguments[2]);
      else if (name === 'appendText' || name === 'appendMarkdown') report(node.arguments[0]);
      else if (name === 'setAttribute' && node.arguments[0]?.type === 'Literal' && ATTRIBUTES.has(String(node.arguments[0].value))) report(node.arguments[1]);
      else if (node.type === 'NewExpression' && name.endsWith('TreeItem')) report(node.arguments[0]);
    };
    return {
      CallExpression: onCall,
      NewExpression: onCall,
      Property(node) {
        const key = keyName(node.key);
        if (key && UI_KEYS.has(key) && !node.computed) report(node.value);
      },
      AssignmentExpression(node) {
        const target = node.left;
        if (target.type !== 'MemberExpression' || target.computed || target.property.type !== 'Identifier') return;
        if (UI_KEYS.has(target.property.name)) report(node.right);
      },
    };
  },
};
