#!/usr/bin/env bash
# Configures Podman (installed by setup.sh) for this kind of machine and makes the user the
# rootless Podman tests run as. Idempotent; one line per step. SWE-CI itself needs neither:
# the README's Podman section says what a host needs, and sweci refuses with the fix when a
# piece is missing.
#
#   bash scripts/podman-setup.sh
#
# Steps:
#   1. Root's rlimits: where root may not raise its open-files or process limits (a VM or
#      container whose init caps them, as here), Podman's default ulimits make every
#      `podman run` fail ("error setting rlimit type 7"). An empty default_ulimits in
#      /etc/containers/containers.conf.d/50-sweci.conf lets containers keep the limits they
#      are started with.
#   2. $SWECI_ROOTLESS_USER (default sweci-rootless): a user with a home and subordinate ids
#      (useradd writes /etc/subuid and /etc/subgid), as a cluster user is; the tests run
#      `sweci` as this user to check the rootless route.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOTLESS_USER="${SWECI_ROOTLESS_USER:-sweci-rootless}"
CONF_D=/etc/containers/containers.conf.d
CONF="$CONF_D/50-sweci.conf"

SETUP_NAME=podman-setup
# shellcheck source=scripts/setup-lib.sh
source "$ROOT/scripts/setup-lib.sh"

step "Podman"
have podman || die "podman is not installed (setup.sh installs it: apt-get install podman uidmap)"
skip "$(podman --version)"

step "Podman's default ulimits on this machine"
# Podman raises open files to 1048576 and processes to 4194304 in a root's containers.
if [ "$(id -u)" -ne 0 ]; then
  skip "not root: rootless Podman keeps the user's own limits"
elif bash -c 'ulimit -Hn 1048576 && ulimit -Hu 4194304' >/dev/null 2>&1; then
  skip "root may raise its limits here: Podman's defaults work"
elif [ -f "$CONF" ] && grep -q '^default_ulimits = \[\]' "$CONF"; then
  skip "already set in $CONF"
else
  mkdir -p "$CONF_D"
  printf '# Written by SWE-CI scripts/podman-setup.sh: root may not raise its rlimits on this machine,\n# so containers keep the limits they start with (sweci.limits.* hold them by cgroup).\n[containers]\ndefault_ulimits = []\n' >"$CONF"
  skip "root may not raise its limits here: wrote an empty default_ulimits to $CONF"
fi

step "a user for the rootless Podman tests ($ROOTLESS_USER)"
if [ "$(id -u)" -ne 0 ]; then
  skip "not root: the rootless tests run as this user"
elif id "$ROOTLESS_USER" >/dev/null 2>&1 && grep -q "^$ROOTLESS_USER:" /etc/subuid && grep -q "^$ROOTLESS_USER:" /etc/subgid; then
  skip "already there, with subordinate ids"
else
  id "$ROOTLESS_USER" >/dev/null 2>&1 || quiet useradd -m -s /bin/bash "$ROOTLESS_USER"
  grep -q "^$ROOTLESS_USER:" /etc/subuid || quiet usermod --add-subuids 200000-265535 --add-subgids 200000-265535 "$ROOTLESS_USER"
  grep -q "^$ROOTLESS_USER:" /etc/subgid || quiet usermod --add-subgids 200000-265535 "$ROOTLESS_USER"
  skip "$(grep "^$ROOTLESS_USER:" /etc/subuid)"
fi
