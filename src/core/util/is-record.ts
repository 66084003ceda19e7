// The one test for "a JSON object": not null, not an array. Pure, so the webviews use it too.

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
