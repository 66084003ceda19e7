// A URL as it may be written down: a password in it (a package index's token) replaced by ***.
/** `text` with its URL password replaced; anything that is not a URL with a password, unchanged. */
export function withoutPassword(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (!url.password) return text;
  url.password = '***';
  return url.toString();
}
