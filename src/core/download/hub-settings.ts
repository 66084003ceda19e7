// Which Hub repository the editor downloads from (sweci.dataset.*): the same checks the CLI's
// --repo, --revision and --endpoint get, so a value means the same in both.
import { checkRepoId, DEFAULT_REPO, readEndpoint, type HubTarget } from './hub-client';
import { UserError } from '../util/errors';
import { readText, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';

export type HubSource = Omit<HubTarget, 'token' | 'tokenSource'>;

/** sweci.dataset.repo / .revision / .endpoint; an empty endpoint means HF_ENDPOINT, else the public Hub. */
export function readHubSettings(read: SettingReader, env: NodeJS.ProcessEnv, label: SettingLabel = settingName): HubSource {
  const repo = readText(read, label, 'dataset.repo', DEFAULT_REPO) || DEFAULT_REPO;
  const revision = readText(read, label, 'dataset.revision', 'main') || 'main';
  const endpoint = readText(read, label, 'dataset.endpoint', '');
  return {
    repo: withSetting('dataset.repo', () => checkRepoId(repo, `Set ${label('dataset.repo')} to`)),
    revision,
    endpoint: withSetting(endpoint ? 'dataset.endpoint' : undefined, () =>
      readEndpoint(env, endpoint || undefined, `Set ${label('dataset.endpoint')} (or HF_ENDPOINT) to http(s)://host[:port].`),
    ),
  };
}

/** The check's UserError, pointing at the setting so the editor offers to open it. */
function withSetting<T>(key: string | undefined, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (key && err instanceof UserError) throw new UserError(err.message, { setting: key });
    throw err;
  }
}
