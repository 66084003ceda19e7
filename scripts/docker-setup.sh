#!/usr/bin/env bash
# Makes sure a Docker engine answers and a task-style image archive exists, on a machine
# that may have neither. Idempotent; one line per step, a step's output only on failure.
#
#   bash scripts/docker-setup.sh          # install, start, build (what setup.sh calls)
#   bash scripts/docker-setup.sh stop     # stop an engine this script started
#
# Steps:
#   1. Debian's docker.io and debootstrap, when missing.
#   2. An engine: if none answers (DOCKER_HOST or /var/run/docker.sock), start dockerd by
#      hand (no systemd here), data under /var/lib/sweci-docker, and wait until it answers.
#   3. The demo task's environment: python3 + pytest (and git and bubblewrap, which a pod image
#      running sweci needs: the Kubernetes pod test builds one on it) in a Debian bookworm root filesystem
#      made by debootstrap (no registry is needed), imported as $SWECI_DEMO_IMAGE and saved
#      as a task-style image.tar.gz (a `docker save`, gzipped, as SWE-CI datasets ship it) at
#      $SWECI_DOCKER_CACHE/demo-env.image.tar.gz. Reused while the recipe is unchanged.
#   4. The curation tests' base image, $SWECI_CURATE_BASE_IMAGE: the demo image with Debian's
#      python3-pip and python3-venv added from the same mirror (host network: the build reaches
#      what this machine reaches). `sweci curate`'s environment stage builds FROM it in tests,
#      since no image registry is reachable. Reused while its recipe is unchanged.
#
# Environment:
#   SWECI_DOCKER_CACHE   where the archive is kept (default ~/.cache/swe-ci/docker)
#   SWECI_DEMO_IMAGE     the image tag (default sweci/demo-env:bookworm)
#   SWECI_CURATE_BASE_IMAGE  the curation base image's tag (default sweci/curate-python:bookworm)
#   SWECI_DEBIAN_MIRROR  the Debian mirror debootstrap fetches from (default: the one this
#                        machine's apt uses, read from /etc/apt/sources.list.d/*.sources or
#                        /etc/apt/sources.list)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SWECI_DOCKER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/swe-ci/docker}"
IMAGE="${SWECI_DEMO_IMAGE:-sweci/demo-env:bookworm}"
ARCHIVE="$CACHE/demo-env.image.tar.gz"
# Change this when the recipe below changes: the cached archive is rebuilt.
RECIPE="bookworm minbase python3 python3-pytest python-is-python3 git bubblewrap v2"
CURATE_IMAGE="${SWECI_CURATE_BASE_IMAGE:-sweci/curate-python:bookworm}"
CURATE_RECIPE="$RECIPE + python3-pip python3-venv v1"
DATA_ROOT=/var/lib/sweci-docker
RUN_DIR=/run/sweci-docker          # short: unix socket paths must stay under 108 characters
PIDFILE="$RUN_DIR/dockerd.pid"

export DEBIAN_FRONTEND=noninteractive

SETUP_NAME=docker-setup
# shellcheck source=scripts/setup-lib.sh
source "$ROOT/scripts/setup-lib.sh"

engine_answers() { docker info >/dev/null 2>&1; }

# The Debian mirror this machine's apt already uses (no registry host is named here): the first
# http(s) or file URI of a `deb` source that carries bookworm, else of any `deb` source that is
# not a security or updates suite. Read from the deb822 files in sources.list.d, then from
# sources.list in one-line form.
apt_mirror() {
  local files=() f
  for f in /etc/apt/sources.list.d/*.sources; do [ -f "$f" ] && files+=("$f"); done
  {
    [ "${#files[@]}" -eq 0 ] || awk '
      function flush() { if (deb && uri != "") print suites "\t" uri; deb = 0; uri = ""; suites = "" }
      /^[ \t]*$/ { flush(); next }
      /^[ \t]*#/ { next }
      tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
      tolower($1) == "uris:" { uri = $2 }
      tolower($1) == "suites:" { $1 = ""; suites = $0 }
      END { flush() }' "${files[@]}"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      # deb [options] URI suite components...
      sed -E -n 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+([^[:space:]]+).*/ \3\t\2/p' "$f"
    done
  } | awk -F '\t' '
    $2 !~ /^(https?|file):/ { next }
    $1 ~ /[ ]bookworm([ ]|$)/ { print $2; found = 1; exit }
    fallback == "" { n = split($1, suite, " "); for (i = 1; i <= n; i++) if (suite[i] !~ /-/) { fallback = $2; break } }
    END { if (!found && fallback != "") print fallback }'
}

# A root filesystem becomes the image (one layer), labelled with the recipe that made it.
import_rootfs() {
  tar --numeric-owner -C "$1" -c . | docker import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    -c 'ENV LANG=C.UTF-8' \
    -c "LABEL sweci.recipe=\"$RECIPE\"" \
    -c 'CMD ["/bin/bash"]' - "$IMAGE"
}

# The task-style archive: what `docker save | gzip` gives, written whole or not at all.
save_archive() {
  docker save "$IMAGE" | gzip -1 >"$ARCHIVE.part"
  mv "$ARCHIVE.part" "$ARCHIVE"
  echo "$RECIPE" >"$ARCHIVE.recipe"
}

if [ "${1:-}" = "stop" ]; then
  if [ -f "$PIDFILE" ]; then
    as_root kill -TERM "$(cat "$PIDFILE")" 2>/dev/null || true
    for _ in $(seq 1 50); do [ -f "$PIDFILE" ] || break; sleep 0.2; done
    skip "stopped the engine started by this script"
  else
    skip "no engine started by this script is running"
  fi
  exit 0
fi

# ---------------------------------------------------------------------------
step "Docker engine, debootstrap and iproute2 (Debian packages)"
missing=()
have dockerd || missing+=(docker.io)
have debootstrap || missing+=(debootstrap)
# The tests give their second engine a bridge of its own with `ip`.
have ip || missing+=(iproute2)
if [ "${#missing[@]}" -eq 0 ]; then
  skip "already installed"
else
  skip "installing: ${missing[*]}"
  quiet as_root apt-get update -o DPkg::Lock::Timeout=600
  # "policy-rc.d denied execution of start" is expected: there is no service manager here.
  quiet as_root apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"
fi
command -v docker >/dev/null 2>&1 || die "no docker client on PATH after installing docker.io"

# ---------------------------------------------------------------------------
step "a running engine"
if engine_answers; then
  skip "an engine answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'))"
else
  if [ -n "${DOCKER_HOST:-}" ]; then
    die "DOCKER_HOST=$DOCKER_HOST does not answer; start that engine, or unset DOCKER_HOST to let this script start a local one"
  fi
  as_root mkdir -p "$DATA_ROOT" "$RUN_DIR"
  # A pid file left by an engine that died would make dockerd refuse to start.
  if [ -f "$PIDFILE" ] && ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then as_root rm -f "$PIDFILE"; fi
  as_root setsid nohup dockerd \
    --data-root "$DATA_ROOT" --exec-root "$RUN_DIR/exec" --pidfile "$PIDFILE" \
    -H unix:///var/run/docker.sock >"$RUN_DIR/dockerd.log" 2>&1 </dev/null &
  for _ in $(seq 1 120); do engine_answers && break; sleep 0.5; done
  engine_answers || { tail -20 "$RUN_DIR/dockerd.log" >&2; die "dockerd did not answer within 60 s (log: $RUN_DIR/dockerd.log)"; }
  skip "started dockerd (log: $RUN_DIR/dockerd.log)"
fi

# ---------------------------------------------------------------------------
step "demo task image $IMAGE ($ARCHIVE)"
mkdir -p "$CACHE"
if [ -f "$ARCHIVE" ] && [ "$(cat "$ARCHIVE.recipe" 2>/dev/null)" = "$RECIPE" ] && gzip -t "$ARCHIVE" 2>/dev/null; then
  skip "archive is up to date"
elif [ "$(docker image inspect -f '{{index .Config.Labels "sweci.recipe"}}' "$IMAGE" 2>/dev/null)" = "$RECIPE" ]; then
  quiet save_archive
  skip "saved from the engine's copy"
else
  DEBIAN_MIRROR="${SWECI_DEBIAN_MIRROR:-$(apt_mirror)}"
  [ -n "$DEBIAN_MIRROR" ] || die "no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set SWECI_DEBIAN_MIRROR"
  rootfs="$(mktemp -d /tmp/sweci-rootfs.XXXXXX)"
  trap 'as_root rm -rf "$rootfs"' EXIT
  skip "debootstrap from $DEBIAN_MIRROR (about a minute)"
  quiet as_root debootstrap --variant=minbase --include=python3,python3-pytest,python-is-python3,git,bubblewrap \
    bookworm "$rootfs" "$DEBIAN_MIRROR"
  as_root rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  quiet import_rootfs "$rootfs"
  quiet save_archive
  skip "built $(du -h "$ARCHIVE" | cut -f1)"
fi
docker image inspect "$IMAGE" >/dev/null 2>&1 || quiet docker load -i "$ARCHIVE"

# ---------------------------------------------------------------------------
step "curation base image $CURATE_IMAGE"
if [ "$(docker image inspect -f '{{index .Config.Labels "sweci.recipe"}}' "$CURATE_IMAGE" 2>/dev/null)" = "$CURATE_RECIPE" ]; then
  skip "up to date"
else
  # The demo rootfs has no apt lists: fetch them, add the two packages, drop the lists again.
  printf '%s\n' "FROM $IMAGE" \
    "RUN apt-get update && apt-get install -y --no-install-recommends python3-pip python3-venv && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb" \
    "LABEL sweci.recipe=\"$CURATE_RECIPE\"" | quiet docker build --network host -t "$CURATE_IMAGE" -
  skip "built"
fi

step "docker ready"
