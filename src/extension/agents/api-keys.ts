// API keys live in VS Code's secret storage, keyed by the environment variable the agent
// reads. Only the names are kept in global state (secret storage cannot list its keys).
import * as vscode from 'vscode';
import * as messages from '../messages';
import { KNOWN_API_KEYS as KNOWN } from '../../core/agents/api-key-names';
import { log } from '../log';

const NAMES_KEY = 'sweci.apiKeyNames';
const secretKey = (name: string) => `sweci.env.${name}`;

export class ApiKeys {
  constructor(private readonly context: vscode.ExtensionContext) {}

  names(): string[] {
    return this.context.globalState.get<string[]>(NAMES_KEY) ?? [];
  }

  /** Every stored key as environment variables for an agent. Never log the values. */
  async environment(): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    for (const name of this.names()) {
      const value = await this.context.secrets.get(secretKey(name));
      if (value) env[name] = value;
    }
    return env;
  }

  async set(name: string, value: string): Promise<void> {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`"${name}" is not an environment variable name.`);
    await this.context.secrets.store(secretKey(name), value);
    const names = new Set(this.names());
    names.add(name);
    await this.context.globalState.update(NAMES_KEY, [...names].sort());
    log().info(`Stored the API key ${name} in secret storage`);
  }

  async clear(name: string): Promise<void> {
    await this.context.secrets.delete(secretKey(name));
    await this.context.globalState.update(
      NAMES_KEY,
      this.names().filter((n) => n !== name),
    );
    log().info(`Removed the API key ${name} from secret storage`);
  }

  /** SWE-CI: Set API Key… */
  async promptSet(): Promise<void> {
    const stored = new Set(this.names());
    const other = vscode.l10n.t('Other variable…');
    const picked = await vscode.window.showQuickPick(
      [
        ...KNOWN.map((k) => ({ label: k.name, detail: k.detail, description: stored.has(k.name) ? vscode.l10n.t('stored') : undefined })),
        { label: other, detail: vscode.l10n.t('any environment variable your agent reads'), description: undefined },
      ],
      { title: vscode.l10n.t('SWE-CI: which environment variable does the key go in?') },
    );
    if (!picked) return;
    let name = picked.label;
    if (name === other) {
      const typed = await vscode.window.showInputBox({
        title: vscode.l10n.t('Environment variable name'),
        validateInput: (v) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? undefined : vscode.l10n.t('Letters, digits and _ only, not starting with a digit')),
      });
      if (!typed) return;
      name = typed;
    }
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Value of {0}', name),
      password: true,
      ignoreFocusOut: true,
      prompt: vscode.l10n.t('Kept in VS Code secret storage; passed to agents as an environment variable; never written to settings or logs.'),
    });
    if (!value) return;
    await this.set(name, value);
    void messages.showInformationMessage(vscode.l10n.t('{0} is stored. Agents receive it as an environment variable.', name));
  }

  /** SWE-CI: Clear API Key… */
  async promptClear(): Promise<void> {
    const names = this.names();
    if (names.length === 0) {
      void messages.showInformationMessage(vscode.l10n.t('No API keys are stored, so there is nothing to clear. "SWE-CI: Set API Key…" stores one.'));
      return;
    }
    const name = await vscode.window.showQuickPick(names, { title: vscode.l10n.t('SWE-CI: remove which key?') });
    if (!name) return;
    await this.clear(name);
    void messages.showInformationMessage(vscode.l10n.t('{0} is removed from secret storage. Agents no longer receive it.', name));
  }
}
