#!/usr/bin/env bash
# A tier under load: runs one test tier (unit | integration | e2e) with a CPU hog beside it, one
# busy process per core (nproc), RUNS times in a row (default 3), and stops at the first failure.
# A test that races the clock fails here when it would pass on a quiet machine. Prints each run's
# time. The hog is killed however the script ends (trap). Build first: npm run build && npm run compile.
# Usage: scripts/test-under-load.sh <unit|integration|e2e> [runs]
set -euo pipefail

tier="${1:-}"
runs="${2:-3}"
case "$tier" in
  unit | integration | e2e) ;;
  *)
    echo "usage: $0 <unit|integration|e2e> [runs]" >&2
    exit 2
    ;;
esac
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "runs must be a whole number of at least 1, not '$runs'" >&2
  exit 2
fi

cd "$(dirname "$0")/.."
cores="$(nproc)"
hog=()
tier_pid=''

stop_hog() {
  for pid in "${hog[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hog[@]}"; do wait "$pid" 2>/dev/null || true; done
  hog=()
}
# Stopped: the tier is stopped too (it passes the signal to its files) and waited for.
stop_tier() {
  if [ -n "$tier_pid" ]; then
    # The whole group: npm does not pass a TERM on to the tier's runner.
    kill -TERM -- "-$tier_pid" 2>/dev/null || true
    wait "$tier_pid" 2>/dev/null || true
  fi
  exit "$1"
}
trap stop_hog EXIT
trap 'stop_tier 130' INT
trap 'stop_tier 143' TERM

# One busy loop per core, each its own process (a shell builtin loop: no child to leave behind).
for _ in $(seq "$cores"); do
  (while :; do :; done) &
  hog+=("$!")
done
echo "test-under-load: $tier tier, $runs run(s), a hog of $cores busy processes (pids ${hog[*]})"

for run in $(seq "$runs"); do
  started=$(date +%s)
  status=0
  # In the background and waited for, so a signal to this script is handled at once; in a
  # process group of its own (setsid), so a stop reaches the runner and its files.
  setsid npm run --silent "test:$tier" &
  tier_pid=$!
  wait "$tier_pid" || status=$?
  tier_pid=''
  took=$(($(date +%s) - started))
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  printf 'test-under-load: run %d of %d: %s tier %s in %dm%02ds (load %s)\n' "$run" "$runs" "$tier" \
    "$([ "$status" -eq 0 ] && echo passed || echo FAILED)" $((took / 60)) $((took % 60)) "$load"
  if [ "$status" -ne 0 ]; then exit "$status"; fi
done
