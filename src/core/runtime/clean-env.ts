// The environment a command starts from when it must not see this process's: the reference runs
// pytest with `docker exec -e PYTHONPATH=src:.`, which sees the image's variables and nothing of
// the shell that started the harness (PYTEST_ADDOPTS, PYTHONSTARTUP, PYTHONWARNINGS, … would
// change outcomes). Locally we keep only what finding and starting an interpreter needs.

/** Variables kept by name. */
const KEEP = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  // An active virtual environment or conda environment, and pyenv's shims.
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'CONDA_EXE',
  'CONDA_SHLVL',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'PYENV_DIR',
  'PYENV_SHELL',
  // Windows needs these to start anything at all.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
]);

/** Variables kept by prefix: the locale categories. */
const KEEP_PREFIXES = ['LC_'];

export function cleanEnvironment(from: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined) continue;
    const upper = process.platform === 'win32' ? name.toUpperCase() : name;
    if (KEEP.has(upper) || KEEP_PREFIXES.some((p) => upper.startsWith(p))) out[name] = value;
  }
  return out;
}
