// sweci.telemetry.* and the standard OTEL_* variables: whether spans are sent, where, and how.
// One parser for the extension's settings and the CLI. Nothing is sent unless an endpoint is
// set (the setting, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT); a bad one
// is refused before anything runs, naming where it came from.
import { readFlag, readText, settingName, type SettingLabel, type SettingReader } from '../util/setting-reader';
import { UserError } from '../util/errors';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TelemetrySettings {
  /** Where spans go (the traces URL, …/v1/traces); undefined: telemetry is off. */
  tracesUrl?: string;
  protocol: OtlpProtocol;
  /** Put message content (prompts and answers, masked) on model-call spans. */
  captureContent: boolean;
  /** Resource service.name (OTEL_SERVICE_NAME). */
  serviceName: string;
}

export const DEFAULT_SERVICE_NAME = 'sweci';

type Env = Readonly<Record<string, string | undefined>>;

function url(text: string, where: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new UserError(`${where} must be a URL such as http://localhost:4318, not ${JSON.stringify(text)}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UserError(`${where} must be an http:// or https:// URL (OTLP over HTTP), not ${JSON.stringify(text)}.`);
  return parsed;
}

/** A base endpoint (as OTEL_EXPORTER_OTLP_ENDPOINT means it) → its traces URL. */
function tracesOf(base: URL): string {
  return `${base.href.replace(/\/+$/, '')}/v1/traces`;
}

export function readTelemetrySettings(read: SettingReader, env: Env = process.env, label: SettingLabel = settingName): TelemetrySettings {
  const setting = readText(read, label, 'telemetry.otlpEndpoint', '');
  const captureContent = readFlag(read, label, 'telemetry.captureContent', false);
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  let tracesUrl: string | undefined;
  // The setting is the user's choice for SWE-CI; the variables are the environment's.
  if (setting) tracesUrl = tracesOf(url(setting, label('telemetry.otlpEndpoint').replace(/^the /, 'The ')));
  else if (signal) tracesUrl = url(signal, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').href;
  else if (base) tracesUrl = tracesOf(url(base, 'OTEL_EXPORTER_OTLP_ENDPOINT'));
  const rawProtocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? '').trim() || 'http/protobuf';
  if (tracesUrl && rawProtocol !== 'http/protobuf' && rawProtocol !== 'http/json') {
    const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
    throw new UserError(`${name} must be http/protobuf or http/json (SWE-CI sends OTLP over HTTP), not ${JSON.stringify(rawProtocol)}.`);
  }
  return {
    ...(tracesUrl ? { tracesUrl } : {}),
    protocol: rawProtocol === 'http/json' ? 'http/json' : 'http/protobuf',
    captureContent,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME,
  };
}
