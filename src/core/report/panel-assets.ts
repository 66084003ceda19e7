// A panel's bundle and stylesheet, as an exported page inlines them: the script without its
// source-map comment (it would point at a file the page does not carry), and the stylesheet after
// the one every webview shares (media/webview-base.css), as a panel loads them.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const BASE_STYLE = 'webview-base.css';

/** media/webview-base.css and then media/<style> under `root`: one panel's whole stylesheet. */
export async function panelCss(root: string, style: string): Promise<string> {
  const [base, own] = await Promise.all([fs.readFile(path.join(root, 'media', BASE_STYLE), 'utf8'), fs.readFile(path.join(root, 'media', style), 'utf8')]);
  return `${base}\n${own}`;
}

/** dist/<script> and the panel's stylesheet under `root`, ready to inline. */
export async function readPanelAssets(root: string, script: string, style: string): Promise<{ script: string; css: string }> {
  const [code, css] = await Promise.all([fs.readFile(path.join(root, 'dist', script), 'utf8'), panelCss(root, style)]);
  return { script: code.replace(/\/\/# sourceMappingURL=\S+\s*$/, ''), css };
}
