// The extension in another display language, through VS Code's own mechanism: code-server runs
// with --locale qps-ploc, a language pack for qps-ploc is installed (VS Code resolves a display
// language only when one is), and the extension folder holds pseudo-localized copies of its
// English bundle and manifest text, made here by @vscode/l10n-dev. VS Code then loads
// l10n/bundle.l10n.qps-ploc.json for vscode.l10n.t and package.nls.qps-ploc.json for the manifest,
// and the SWE-CI views must show the pseudo text.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';
import { repoRoot } from '../../harness/code-server';
import { makeTestExtension } from '../../harness/test-extension';
import { withWorkbench } from '../../harness/workbench';
import { prepareDemoTask } from '../demo-task';

const LOCALE = 'qps-ploc';

/** The English text of `file` (a bundle or package.nls.json) pseudo-localized. */
function pseudo(file: string): Record<string, unknown> {
  return getL10nPseudoLocalized(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>);
}

/** A language pack for qps-ploc with no translation of VS Code's own text (it stays English). */
function makeLanguagePack(dir: string): string {
  const pack = path.join(dir, 'pseudo-language-pack');
  fs.mkdirSync(path.join(pack, 'translations'), { recursive: true });
  fs.writeFileSync(
    path.join(pack, 'package.json'),
    JSON.stringify({
      name: 'pseudo-language-pack',
      publisher: 'sweci-test',
      version: '0.0.1',
      engines: { vscode: '*' },
      categories: ['Language Packs'],
      contributes: {
        localizations: [
          {
            languageId: LOCALE,
            languageName: 'Pseudo',
            localizedLanguageName: 'Pseudo',
            translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
          },
        ],
      },
    }),
  );
  fs.writeFileSync(path.join(pack, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  return pack;
}

export async function pseudoLocaleScenario(): Promise<string> {
  const task = await prepareDemoTask('pseudo-locale');
  const extension = makeTestExtension();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sweci-e2e-pseudo-'));
  try {
    // The test extension links l10n/ to the repository's: give it a folder of its own with the pseudo bundle beside the English one.
    const l10nDir = path.join(extension.path, 'l10n');
    fs.rmSync(l10nDir, { recursive: true, force: true });
    fs.mkdirSync(l10nDir);
    fs.copyFileSync(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'), path.join(l10nDir, 'bundle.l10n.json'));
    fs.writeFileSync(path.join(l10nDir, `bundle.l10n.${LOCALE}.json`), JSON.stringify(pseudo(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'))));
    fs.writeFileSync(path.join(extension.path, `package.nls.${LOCALE}.json`), JSON.stringify(pseudo(path.join(repoRoot(), 'package.nls.json'))));
    const bundle = pseudo(path.join(repoRoot(), 'l10n', 'bundle.l10n.json'));
    const nls = pseudo(path.join(repoRoot(), 'package.nls.json'));
    const text = (v: unknown) => (typeof v === 'string' ? v : (v as { message: string }).message);
    // What the views must show: a row label from vscode.l10n.t and a view name from package.nls.json.
    const base = text(bundle['Base']);
    const taskView = text(nls['view.task.name']);
    if (!base || base === 'Base' || !taskView || taskView === 'Task') throw new Error(`the pseudo bundle did not change the text: ${base} / ${taskView}`);

    return await withWorkbench(
      {
        folder: task.taskDir,
        name: 'pseudo-locale',
        extensionPath: extension.path,
        args: ['--locale', LOCALE],
        moreExtensions: [makeLanguagePack(scratch)],
      },
      async (page, wb) => {
        await wb.openSweciView();
        // The Task view's rows (vscode.l10n.t) and its title (the manifest's view name) in the pseudo language.
        await wb.waitForTreeRow(base, 120_000);
        await page
          .locator('.part.sidebar .pane-header .title')
          .filter({ hasText: taskView })
          .first()
          .waitFor({ timeout: 60_000 })
          .catch(async () => {
            const titles = await page.locator('.part.sidebar .pane-header .title').allTextContents();
            throw new Error(`no view is titled ${JSON.stringify(taskView)}; the titles are ${JSON.stringify(titles)}`);
          });
        await page.mouse.move(900, 600);
        await wb.waitForIdle();
        return wb.screenshot('pseudo-locale');
      },
    );
  } finally {
    extension.dispose();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
