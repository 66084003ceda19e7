// The status bar's text from what is known (no VS Code API involved).

export interface StatusInputs {
  /** task · run · #iteration · a(c), as last read from the run's files. */
  parts: string[];
  running: boolean;
  /** The progress notification's current message while a loop runs. */
  progress?: string;
  docker: boolean;
}

const MAX_PROGRESS = 60;

export function statusText(s: StatusInputs): string {
  const icon = s.running ? '$(sync~spin)' : '$(beaker)';
  let progress = s.running && s.progress ? s.progress : undefined;
  if (progress && progress.length > MAX_PROGRESS) progress = `${progress.slice(0, MAX_PROGRESS - 1)}…`;
  return `${icon} ${[...s.parts, ...(progress ? [progress] : [])].join(' · ')}${s.docker ? ' · $(vm) docker' : ''}`;
}
