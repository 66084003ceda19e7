// Words for a POSIX shell script that sweci writes (a Kubernetes pod's command, a Slurm batch script).

/** `s` as one word for a POSIX shell: bare when plainly safe, otherwise single-quoted. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A secret written inline, the common ways (`ANTHROPIC_API_KEY=…`, `sk-ant-…`): its variable when
 * it has one; undefined when `text` shows none. Files sweci writes for a cluster hold no key.
 */
export function inlineSecret(text: string): { variable?: string } | undefined {
  const assignment = /\b([A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD))=\S/.exec(text);
  if (assignment) return { variable: assignment[1] };
  return /\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}/.test(text) ? {} : undefined;
}
