// The Hugging Face token for downloads: VS Code's secret storage first, else HF_TOKEN of the
// editor's environment. Kept apart from the agents' API keys, so no agent ever receives it.
import * as vscode from 'vscode';
import * as messages from '../messages';
import { readToken } from '../../core/download/hub-client';
import { log } from '../log';

const SECRET = 'sweci.hub.token';
/** The command's title as the palette shows it (a button that runs it says the same). */
export function setTokenCommand(): string {
  return vscode.l10n.t('SWE-CI: Set Hugging Face Token…');
}

export class HubToken {
  constructor(private readonly context: vscode.ExtensionContext) {}

  /** The token and where it came from, for the Hub client and its messages. */
  async current(): Promise<{ token?: string; tokenSource?: string }> {
    const stored = await this.context.secrets.get(SECRET);
    if (stored) return { token: stored, tokenSource: 'the editor\u2019s secret storage' };
    return readToken(process.env);
  }

  async set(value: string): Promise<void> {
    const problem = tokenProblem(value);
    if (problem) throw new Error(problem);
    await this.context.secrets.store(SECRET, value.trim());
    log().info('Stored the Hugging Face token in secret storage');
  }

  /** SWE-CI: Set Hugging Face Token…; true when one was stored. */
  async promptSet(): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Set Hugging Face Token'),
      password: true,
      ignoreFocusOut: true,
      prompt: vscode.l10n.t(
        'A read token from huggingface.co/settings/tokens. Kept in secret storage, used only for dataset downloads, never given to agents.',
      ),
      validateInput: (v) => (v.trim() === '' ? undefined : tokenProblem(v)),
    });
    if (!value?.trim()) return false;
    await this.set(value);
    void messages.showInformationMessage(vscode.l10n.t('The Hugging Face token is stored. Downloads use it; agents never receive it.'));
    return true;
  }

  /** SWE-CI: Clear Hugging Face Token */
  async clear(): Promise<void> {
    await this.context.secrets.delete(SECRET);
    log().info('Removed the Hugging Face token from secret storage');
    void messages.showInformationMessage(
      process.env.HF_TOKEN
        ? vscode.l10n.t('The stored token is removed. Downloads now use HF_TOKEN from the environment.')
        : vscode.l10n.t('The stored Hugging Face token is removed.'),
    );
  }
}

function tokenProblem(value: string): string | undefined {
  return value.trim().startsWith('hf_') ? undefined : 'A Hugging Face access token starts with "hf_".';
}
