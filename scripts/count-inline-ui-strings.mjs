// Counts the user-facing strings not passed through l10n.t, per folder, as lint's
// sweci/no-inline-ui-string rule sees them (docs/ARCHITECTURE.md, Localization: a syntax
// heuristic; text held in a variable first is not counted). The figure for issue 47's closing
// note; the goal is 0 in each. Run: node scripts/count-inline-ui-strings.mjs
import { ESLint } from 'eslint';

const FOLDERS = ['src/extension', 'webview-ui', 'src/server'];
const RULE = 'sweci/no-inline-ui-string';

// The project's config with only this rule on, so the count is the rule's and nothing else's.
const eslint = new ESLint({ ruleFilter: ({ ruleId }) => ruleId === RULE });
let total = 0;
for (const folder of FOLDERS) {
  const results = await eslint.lintFiles([`${folder}/**/*.ts`]);
  const sites = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line}:${m.column}`));
  total += sites.length;
  console.log(`${folder}: ${sites.length} inline user-facing string${sites.length === 1 ? '' : 's'}`);
  for (const s of sites) console.log(`  ${s}`);
}
console.log(`total: ${total}`);
process.exitCode = total === 0 ? 0 : 1;
