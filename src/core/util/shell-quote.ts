// Words for a POSIX shell script that sweci writes (a Kubernetes pod's command, a Slurm batch script).

/** `s` as one word for a POSIX shell: bare when plainly safe, otherwise single-quoted. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
