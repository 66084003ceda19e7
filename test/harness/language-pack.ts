// A language pack for the workbench, built here as a .vsix: VS Code shows a display language
// (--locale) only when a language pack for it is installed, and only then loads an extension's
// bundle.l10n.<locale>.json and package.nls.<locale>.json. The pack translates nothing of VS Code's
// own text (its messages stay English): it only makes the locale one VS Code resolves.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ZipFile } from 'yazl';

/** Writes `<dir>/language-pack-<locale>.vsix` and returns its path. */
export async function writeLanguagePackVsix(dir: string, locale: string): Promise<string> {
  const manifest = {
    name: `sweci-test-language-pack-${locale}`,
    publisher: 'sweci-test',
    version: '0.0.1',
    engines: { vscode: '*' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        { languageId: locale, languageName: locale, localizedLanguageName: locale, translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] },
      ],
    },
  };
  const zip = new ZipFile();
  // A .vsix holds the extension under extension/.
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), 'extension/package.json');
  zip.addBuffer(Buffer.from(JSON.stringify({ version: '1.0.0', contents: {} })), 'extension/translations/main.i18n.json');
  zip.end();
  const file = path.join(dir, `language-pack-${locale}.vsix`);
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject);
  });
  return file;
}
