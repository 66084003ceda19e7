// The wire protocols agent presets speak to a model endpoint, and the endpoint as one of them
// sees it: a base URL, a key and the role's model, as the reference configures its agents. The
// URL is written the way a protocol's clients expect it (OpenAI-style clients append paths to
// …/v1; Anthropic's and Gemini's clients add /v1/… or /v1beta/… themselves). Which preset speaks
// which protocol is the preset's own (presets/<id>/preset.ts); endpoint/endpoint.ts resolves it.
import { UserError } from '../util/errors';
import type { SettingLabel } from '../util/setting-reader';

import type { WireProtocol } from '../gateway/wire-protocol';

export type { WireProtocol };

/** The environment variable (headless) and secret name (editor) that holds the endpoint's key. */
export const ENDPOINT_KEY_ENV = 'SWECI_API_KEY';

/** Sent when no key is stored: CLIs refuse to start without one, and a local server may need none. */
export const NO_KEY_PLACEHOLDER = 'sweci-no-key';

/** The provider name our endpoint gets in CLIs that name providers (codex, opencode). */
export const PROVIDER_ID = 'sweci';

export const PROTOCOL_LABEL: Readonly<Record<WireProtocol, string>> = {
  'anthropic-messages': 'Anthropic Messages',
  'openai-responses': 'OpenAI Responses',
  'chat-completions': 'OpenAI Chat Completions',
  gemini: 'Gemini',
};

/** A role's endpoint, resolved: the URL as its preset's protocol wants it, and the key. */
export interface Endpoint {
  protocol: WireProtocol;
  /** The base URL as the user wrote it (trailing slashes removed). */
  baseUrl: string;
  /** The base URL for this protocol's clients. */
  url: string;
  key: string;
  /** Whether `key` is the placeholder (no key was stored). */
  keyMissing: boolean;
}

/** A base URL setting, checked: http(s), no query or fragment; '' when unset. */
export function parseBaseUrl(value: string, label: SettingLabel, key: string): string {
  const text = value.trim();
  if (text === '') return '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`${label(key)} must be a URL such as http://localhost:8000/v1, not ${JSON.stringify(value)}.`, { setting: key });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(`${label(key)} must be an http:// or https:// URL, not ${JSON.stringify(value)}.`, { setting: key });
  if (url.search || url.hash)
    throw new UserError(`${label(key)} must not have a query or fragment (${JSON.stringify(value)}); give the API's base URL, e.g. https://host/v1.`, {
      setting: key,
    });
  if (url.username || url.password)
    throw new UserError(`${label(key)} must not hold a user name or password; store the key with "SWE-CI: Set API Key…" (or ${ENDPOINT_KEY_ENV}).`, {
      setting: key,
    });
  return text.replace(/\/+$/, '');
}

/** The base URL as `protocol`'s clients expect it: …/v1 for OpenAI-style, without a trailing /v1 otherwise. */
export function urlFor(protocol: WireProtocol, baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  const versioned = /\/v\d+(beta)?$/.test(trimmed);
  if (protocol === 'openai-responses' || protocol === 'chat-completions') return versioned ? trimmed : `${trimmed}/v1`;
  return trimmed.replace(/\/v\d+(beta)?$/, '');
}

/** The endpoint at `baseUrl` as `protocol`'s clients see it; the placeholder key when none is stored. */
export function endpointFor(protocol: WireProtocol, baseUrl: string, key: string | undefined): Endpoint {
  return { protocol, baseUrl, url: urlFor(protocol, baseUrl), key: key || NO_KEY_PLACEHOLDER, keyMissing: !key };
}
