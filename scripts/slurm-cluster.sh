#!/usr/bin/env bash
# A real Slurm cluster on this one machine, for trying `sweci slurm` and for the tests: one
# slurmctld and two slurmd (nodes n1 and n2, both on this host, partition `debug`), with their
# own munge daemon, configuration, state and logs, all under DIR. Debian's slurm-wlm (22.05)
# and munge are installed when missing. Needs root (slurmd starts job steps as their user).
#
#   eval "$(bash scripts/slurm-cluster.sh start DIR)"   # prints: export SLURM_CONF=DIR/slurm.conf
#   sbatch --wrap 'hostname'; squeue; sinfo -N
#   bash scripts/slurm-cluster.sh status DIR            # which daemons run, and `sinfo -N`
#   bash scripts/slurm-cluster.sh stop DIR              # cancels the jobs, stops what start started
#   bash scripts/slurm-cluster.sh kill-node DIR n1      # a lost node: SIGKILL n1's slurmd and its jobs
#
# start is idempotent: it starts only the daemons of DIR that are not running (so after
# kill-node, start brings that node back), and waits until every node answers (idle, or busy
# with jobs), or fails after SWECI_SLURM_START_TIMEOUT seconds showing the logs' tails. Only
# the export line goes to stdout; progress goes to stderr.
# stop cancels the cluster's jobs, kills the job steps left on its nodes, removes the containers
# its jobs started that are still there (below), then stops exactly the daemons start started,
# by the pids it recorded in DIR/pids (each checked to still be that daemon of DIR), and waits
# until they have exited. DIR itself (logs, state) is kept.
#
# Containers: every job step of the cluster runs with SWECI_CONTAINER_SESSION naming the cluster
# (a TaskProlog exports it), so each container sweci starts in a job carries that session's label.
# A container outlives a job killed outright (a lost node, a step that did not end in KillWait):
# Docker's runs under its daemon and Podman's under conmon, neither in the job's process tree.
# stop removes the ones labelled with this cluster's session from Docker (when it answers) and
# from each Podman store in use (named on the command lines of the Podman services and conmon
# processes of root still running; a rootless user's store is left to that user); no other container is touched.
#
# Munge: each cluster runs a munged of its own (key, socket, log under DIR/munge), named to
# Slurm by AuthInfo=socket=…; a system munged and /etc/munge are left alone, and two clusters
# never share one. The socket path must stay under 108 characters, so keep DIR short.
#
# Layout of DIR: slurm.conf; munge/; state/ (slurmctld's state, each node's spool, Slurm's own
# pid files); log/ (slurmctld.log, slurmd-<node>.log, and each daemon's stdout/stderr as
# <daemon>.out); pids/ (the pids start recorded: munged, slurmctld, slurmd-<node>).
#
# Environment (two clusters at once need different ports):
#   SWECI_SLURM_PORT            slurmctld's port; node i listens on PORT+i (default 26817, so
#                               26818 and 26819: below Linux's ephemeral range 32768-60999)
#   SWECI_SLURM_NODES           how many nodes, n1..nN (default 2)
#   SWECI_SLURM_CPUS            CPUs per node (default 1)
#   SWECI_SLURM_MEMORY          RealMemory per node in MB (default: this machine's, less 512)
#   SWECI_SLURM_SLURMD_TIMEOUT  seconds before a silent node is DOWN and its jobs requeued
#                               (default 10, so a lost node is noticed quickly; Slurm's is 300)
#   SWECI_SLURM_KILL_WAIT       seconds between SIGTERM and SIGKILL at a time limit (default 30)
#   SWECI_SLURM_CRED_EXPIRE     job credentials' lifetime in seconds; a requeued job waits this
#                               long plus 1 before it may start again (default 10; Slurm's is 120)
#   SWECI_SLURM_START_TIMEOUT   seconds start waits for the nodes (default 60)
set -euo pipefail
# No `producer | grep -q` below: grep -q exits at its first match, the producer may then die of
# SIGPIPE, and pipefail fails the test that matched (kill-node once said 'no node n1' so).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SETUP_NAME=slurm-cluster
# shellcheck source=scripts/setup-lib.sh
source "$ROOT/scripts/setup-lib.sh"
# Progress to stderr: stdout carries only the export line.
step() { printf '==> %s\n' "$*" >&2; }
skip() { printf '    %s\n' "$*" >&2; }

usage() { die "usage: slurm-cluster.sh start|stop|status DIR | kill-node DIR NODE"; }

CMD="${1:-}"
[ $# -ge 2 ] || usage
mkdir -p "$2"
DIR="$(cd "$2" && pwd)"
CONF="$DIR/slurm.conf"
MUNGE_DIR="$DIR/munge"
SOCKET="$MUNGE_DIR/munge.socket"
PORT="${SWECI_SLURM_PORT:-26817}"
NODES="${SWECI_SLURM_NODES:-2}"
CPUS="${SWECI_SLURM_CPUS:-1}"
SLURMD_TIMEOUT="${SWECI_SLURM_SLURMD_TIMEOUT:-10}"
KILL_WAIT="${SWECI_SLURM_KILL_WAIT:-30}"
START_TIMEOUT="${SWECI_SLURM_START_TIMEOUT:-60}"
# A requeued job waits cred_expire + 1 seconds before it may start again (Slurm's default: 120).
CRED_EXPIRE="${SWECI_SLURM_CRED_EXPIRE:-10}"
HOST="$(hostname -s)"
export SLURM_CONF="$CONF"
# The container session of this cluster's jobs (SWECI_CONTAINER_SESSION: letters, digits, . _ -).
SESSION="sweci-slurm-$(printf '%s' "$DIR" | md5sum | cut -c1-12)"
TASK_PROLOG="$DIR/task-prolog.sh"
# stop, status and kill-node act on the cluster as start wrote it, whatever the environment says now.
if [ "$CMD" != start ] && [ -f "$CONF" ]; then
  NODES="$(sed -n 's/^NodeName=n\[1-\([0-9]*\)\].*/\1/p' "$CONF")"
fi

node_names() { local i; for i in $(seq 1 "$NODES"); do echo "n$i"; done; }

# ---------------------------------------------------------------------------
# The daemons this script started: a pid recorded in DIR/pids, alive, and still that daemon of
# this DIR (its command line names this DIR's conf or munge socket), so a reused pid is never hit.
pid_of() {
  local file="$DIR/pids/$1" pid
  [ -f "$file" ] || return 1
  pid="$(cat "$file")"
  alive "$pid" || return 1
  grep -qF -- "$DIR/" <<<"$(tr '\0' ' ' <"/proc/$pid/cmdline")" || return 1
  echo "$pid"
}
running() { pid_of "$1" >/dev/null; }

# Starts a daemon in the foreground of a session of its own, detached from this shell, and
# records its pid; its stdout/stderr go to DIR/log/<name>.out.
launch() {
  local name="$1"
  shift
  setsid "$@" >>"$DIR/log/$name.out" 2>&1 </dev/null &
  echo $! >"$DIR/pids/$name"
}

# A live process; a zombie (exited, not yet reaped by whoever is pid 1 here) counts as gone.
alive() {
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [ "${stat:0:1}" != Z ]
}

# Every process below `pid` (children first found through /proc's parent links).
descendants() {
  local pid="$1" child
  for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do
    echo "$child"
    descendants "$child"
  done
}

# The job steps (slurmstepd) of one node of this cluster: they write to that node's log, which
# is how they are told apart from other clusters' steps (their command line names no file).
steps_of_node() {
  local log="$DIR/log/slurmd-$1.log" pid
  for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
    if grep -qF -- "-> $log" <<<"$(ls -l "/proc/$pid/fd" 2>/dev/null)"; then echo "$pid"; fi
  done
}

# SIGKILL the steps of a node and every process they started (a node that vanished runs nothing).
kill_steps() {
  local node="$1" step pids=()
  for step in $(steps_of_node "$node"); do
    pids+=("$step" $(descendants "$step"))
  done
  if [ "${#pids[@]}" -gt 0 ]; then
    kill -KILL "${pids[@]}" 2>/dev/null || true
    local pid left
    for _ in $(seq 1 50); do # until they are gone (SIGKILL is delivered, not awaited)
      left=0
      for pid in "${pids[@]}"; do alive "$pid" && left=1; done
      [ "$left" -eq 1 ] || break
      sleep 0.1
    done
  fi
  echo "${#pids[@]}"
}

# Sends `signal` to the named daemons and waits (up to `seconds`) until they have exited.
stop_daemons() {
  local signal="$1" seconds="$2" name pid pids=()
  shift 2
  for name in "$@"; do
    pid="$(pid_of "$name")" || continue
    kill "-$signal" "$pid" 2>/dev/null || true
    pids+=("$pid")
  done
  [ "${#pids[@]}" -gt 0 ] || return 0
  local deadline=$((SECONDS + seconds))
  while [ "$SECONDS" -lt "$deadline" ]; do
    local left=0
    for pid in "${pids[@]}"; do alive "$pid" && left=1; done
    [ "$left" -eq 1 ] || return 0
    sleep 0.2
  done
  return 1
}

port_free() { [ -z "$(ss -Htln "sport = :$1" 2>/dev/null)" ]; }

munge_answers() { munge -n -S "$SOCKET" 2>/dev/null | unmunge -S "$SOCKET" >/dev/null 2>&1; }

log_tails() {
  local f
  for f in "$DIR"/log/*.log "$DIR"/log/*.out "$MUNGE_DIR/munged.log"; do
    [ -s "$f" ] || continue
    printf -- '--- last lines of %s\n' "$f" >&2
    tail -n 15 "$f" >&2
  done
}

# Each node's state as "n1 idle" lines; a node that does not answer has a '*' after its state.
node_states() { sinfo -N -h -o '%N %t' 2>/dev/null | sort -u; }

nodes_ready() {
  local states node
  states="$(node_states)" || return 1
  for node in $(node_names); do
    # idle, or busy with jobs (after kill-node the other node may be running them); answering
    grep -qE "^$node (idle|mix|alloc|comp)$" <<<"$states" || return 1
  done
}

# The Podman stores in use on this host, one line of global options each (--root R --runroot RR
# …, empty for the default store): from the command lines of Podman's API services (sweci's) and
# of conmon, which names its store in the podman command it runs when its container exits.
podman_stores() {
  local pid args
  for pid in $(pgrep -u 0 -x podman 2>/dev/null || true) $(pgrep -u 0 -x conmon 2>/dev/null || true); do
    mapfile -d '' args <"/proc/$pid/cmdline" 2>/dev/null || continue
    if [ "$(basename "${args[0]:-}")" = conmon ]; then
      # … --exit-command /usr/bin/podman --exit-command-arg --root --exit-command-arg R … --exit-command-arg container …
      local i out=() on=0
      for ((i = 0; i < ${#args[@]}; i++)); do
        [ "${args[$i]}" = --exit-command-arg ] || continue
        local word="${args[$((i + 1))]:-}"
        [ "$word" = container ] && break
        out+=("$word")
      done
      args=("podman" "${out[@]}" system service)
    fi
    [ "$(basename "${args[0]:-}")" = podman ] || continue
    local opts=() j
    for ((j = 1; j < ${#args[@]}; j++)); do
      case "${args[$j]}" in
        --root | --runroot | --storage-driver) opts+=("${args[$j]}" "${args[$((j + 1))]:-}") && j=$((j + 1)) ;;
        --root=* | --runroot=* | --storage-driver=*) opts+=("${args[$j]}") ;;
        system) break ;;
      esac
    done
    echo "${opts[*]:-}"
  done | sort -u
}

# Removes the containers labelled with this cluster's session: from Docker, and from each Podman
# store in use. Prints how many.
remove_containers() {
  local removed=0 id session store
  local label='dev.swe-ci.session'
  if have docker && docker info >/dev/null 2>&1; then
    while read -r id session; do
      [ "$session" = "$SESSION" ] || continue
      docker rm -f "$id" >/dev/null 2>&1 && removed=$((removed + 1))
    done < <(docker ps -a --filter "label=$label" --format "{{.ID}} {{.Label \"$label\"}}" 2>/dev/null || true)
  fi
  if have podman; then
    while read -r store; do
      # shellcheck disable=SC2086 # the store's options, one word each (no spaces in them)
      while read -r id session; do
        [ "$session" = "$SESSION" ] || continue
        # shellcheck disable=SC2086
        podman $store rm -f "$id" >/dev/null 2>&1 && removed=$((removed + 1))
      done < <(podman $store ps -a --filter "label=$label" --format "{{.ID}} {{index .Labels \"$label\"}}" 2>/dev/null || true)
    done < <(podman_stores)
  fi
  echo "$removed"
}

# ---------------------------------------------------------------------------
write_conf() {
  local memory="${SWECI_SLURM_MEMORY:-}"
  if [ -z "$memory" ]; then
    memory=$(($(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo) - 512))
  fi
  local last=$((PORT + NODES))
  local tmp="$CONF.new"
  cat >"$tmp" <<EOF
# Written by scripts/slurm-cluster.sh: a cluster of $NODES nodes on this host ($HOST).
ClusterName=sweci
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET,cred_expire=$CRED_EXPIRE
StateSaveLocation=$DIR/state/ctld
SlurmdSpoolDir=$DIR/state/spool-%n
SlurmctldPidFile=$DIR/state/slurmctld.pid
SlurmdPidFile=$DIR/state/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=$SLURMD_TIMEOUT
# Pending jobs (a requeued one whose wait is over, or the next element of an array) are looked at
# every second, not every 60: the local cluster runs tasks of seconds.
SchedulerParameters=sched_interval=1
KillWait=$KILL_WAIT
# Labels the containers of every job with this cluster's session (stop removes them).
TaskProlog=$TASK_PROLOG
NodeName=n[1-$NODES] NodeHostname=$HOST Port=$((PORT + 1))-$last CPUs=$CPUS RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=n[1-$NODES] Default=YES MaxTime=INFINITE State=UP
EOF
  if [ -f "$CONF" ] && cmp -s "$tmp" "$CONF"; then
    rm -f "$tmp"
    return
  fi
  if running slurmctld || [ -n "$(for n in $(node_names); do running "slurmd-$n" && echo "$n"; done)" ]; then
    rm -f "$tmp"
    die "the cluster in $DIR runs with another configuration (ports, nodes, CPUs?); stop it first"
  fi
  mv "$tmp" "$CONF"
}

cmd_start() {
  [ "$(id -u)" -eq 0 ] || die "start needs root (slurmd starts job steps as the job's user)"
  [ "${#SOCKET}" -lt 108 ] || die "DIR is too long for munge's socket path ($SOCKET); use a shorter one"

  step "Slurm and munge (Debian packages)"
  local missing=()
  have slurmctld || missing+=(slurm-wlm)
  have slurmd || missing+=(slurm-wlm)
  have munged || missing+=(munge)
  if [ "${#missing[@]}" -eq 0 ]; then
    skip "already installed ($(slurmd -V))"
  else
    # shellcheck disable=SC2207 # one word per package
    missing=($(printf '%s\n' "${missing[@]}" | sort -u))
    skip "installing: ${missing[*]}"
    apt_install() { as_root apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}"; }
    # The package lists are fetched only when the install fails without them.
    if ! DEBIAN_FRONTEND=noninteractive apt_install >/dev/null 2>&1; then
      quiet as_root apt-get update -o DPkg::Lock::Timeout=600
      DEBIAN_FRONTEND=noninteractive quiet apt_install
    fi
  fi

  mkdir -p "$MUNGE_DIR" "$DIR/state/ctld" "$DIR/log" "$DIR/pids"
  chmod 700 "$MUNGE_DIR"
  # slurmd runs it before each task; an `export NAME=value` line it prints is set for the task.
  printf '#!/bin/sh\necho export SWECI_CONTAINER_SESSION=%s\n' "$SESSION" >"$TASK_PROLOG"
  chmod 755 "$TASK_PROLOG"

  step "munge ($SOCKET)"
  if [ ! -s "$MUNGE_DIR/munge.key" ]; then
    (umask 077 && dd if=/dev/urandom of="$MUNGE_DIR/munge.key" bs=1 count=1024 2>/dev/null)
    chmod 400 "$MUNGE_DIR/munge.key"
  fi
  if munge_answers; then
    skip "munged answers"
  else
    # --force: as root, munged would refuse a log folder it does not own, and a stale socket.
    launch munged munged --foreground --force --socket="$SOCKET" --key-file="$MUNGE_DIR/munge.key" \
      --pid-file="$MUNGE_DIR/munged.pid" --log-file="$MUNGE_DIR/munged.log" --seed-file="$MUNGE_DIR/munged.seed"
    for _ in $(seq 1 50); do munge_answers && break; sleep 0.1; done
    munge_answers || { log_tails; die "munged did not answer on $SOCKET"; }
    skip "started munged (pid $(cat "$DIR/pids/munged"))"
  fi

  step "slurm.conf ($CONF)"
  write_conf
  skip "$NODES nodes ($(node_names | tr '\n' ' ')) on $HOST, slurmctld on port $PORT, nodes on $((PORT + 1))-$((PORT + NODES))"

  step "slurmctld and slurmd"
  # A port another program (or another cluster) holds would make its daemon exit at once.
  local node port busy=()
  running slurmctld || port_free "$PORT" || busy+=("$PORT (slurmctld)")
  for node in $(node_names); do
    port=$((PORT + ${node#n}))
    running "slurmd-$node" || port_free "$port" || busy+=("$port ($node)")
  done
  [ "${#busy[@]}" -eq 0 ] || die "ports in use: ${busy[*]}; choose others with SWECI_SLURM_PORT (now $PORT)"
  local started=()
  if ! running slurmctld; then
    launch slurmctld slurmctld -D -f "$CONF"
    started+=(slurmctld)
  fi
  for node in $(node_names); do
    mkdir -p "$DIR/state/spool-$node"
    if ! running "slurmd-$node"; then
      launch "slurmd-$node" slurmd -D -N "$node" -f "$CONF"
      started+=("slurmd-$node")
    fi
  done
  if [ "${#started[@]}" -eq 0 ]; then skip "already running"; else skip "started: ${started[*]}"; fi

  step "waiting for the nodes"
  local deadline=$((SECONDS + START_TIMEOUT))
  until nodes_ready; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      printf 'sinfo -N:\n%s\n' "$(sinfo -N 2>&1)" >&2
      log_tails
      die "the nodes of $DIR were not all idle within ${START_TIMEOUT} s (logs in $DIR/log)"
    fi
    for name in slurmctld $(node_names | sed 's/^/slurmd-/'); do
      running "$name" && continue
      log_tails
      die "$name exited while starting (logs in $DIR/log)"
    done
    sleep 0.5
  done
  skip "$(node_states | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
  echo "export SLURM_CONF=$CONF"
}

cmd_stop() {
  [ "$(id -u)" -eq 0 ] || die "stop needs root"
  step "jobs of $DIR"
  if running slurmctld; then
    local jobs
    jobs="$(squeue -h -o %F 2>/dev/null | sort -u | tr '\n' ' ')"
    if [ -n "${jobs// /}" ]; then
      # shellcheck disable=SC2086 # one word per job id
      scancel $jobs 2>/dev/null || true
      for _ in $(seq 1 75); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
      skip "cancelled: $jobs"
    else
      skip "none"
    fi
  else
    skip "slurmctld is not running"
  fi
  # Steps whose slurmd is gone (kill-node) or that did not end when cancelled.
  local node killed=0
  for node in $(node_names); do killed=$((killed + $(kill_steps "$node"))); done
  [ "$killed" -eq 0 ] || skip "killed $killed leftover job processes"
  local containers
  containers="$(remove_containers)"
  [ "$containers" -eq 0 ] || skip "removed $containers containers the jobs left"

  step "daemons of $DIR"
  local names=(slurmctld)
  for node in $(node_names); do names+=("slurmd-$node"); done
  if ! stop_daemons TERM 20 "${names[@]}"; then
    stop_daemons KILL 5 "${names[@]}" || die "the daemons of $DIR did not exit"
  fi
  if ! stop_daemons TERM 10 munged; then stop_daemons KILL 5 munged || die "munged of $DIR did not exit"; fi
  rm -f "$DIR/pids/"*
  skip "stopped"
}

cmd_status() {
  local name pid state=0
  for name in munged slurmctld $(node_names | sed 's/^/slurmd-/'); do
    if pid="$(pid_of "$name")"; then
      echo "$name: running (pid $pid)"
    else
      echo "$name: not running"
      state=1
    fi
  done
  if running slurmctld; then
    echo "SLURM_CONF=$CONF"
    sinfo -N || true
  fi
  return "$state"
}

# A lost node: its slurmd and its job steps, with everything they started, killed at once.
cmd_kill_node() {
  local node="${1:-}" pid
  [ -n "$node" ] || usage
  grep -qx -- "$node" <<<"$(node_names)" || die "no node $node in $DIR (nodes: $(node_names | tr '\n' ' '))"
  pid="$(pid_of "slurmd-$node")" || die "slurmd of $node in $DIR is not running"
  kill -KILL "$pid"
  local steps
  steps="$(kill_steps "$node")"
  while alive "$pid"; do sleep 0.1; done
  skip "killed slurmd of $node (pid $pid) and $steps job processes"
}

case "$CMD" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  kill-node) cmd_kill_node "${3:-}" ;;
  *) usage ;;
esac
