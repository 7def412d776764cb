#!/bin/bash
# vc-fault.sh -- hurts a running virtual-cluster job and times its end, for
# hosts.exp.
#
#   vc-fault.sh VCLUSTER ACTION [VCLUSTER-RUN-ARGS...]
#
# Starts `VCLUSTER run VCLUSTER-RUN-ARGS...` in the background, waits (up to
# 20 s) for the job to print "ready" (or to end), then does ACTION:
#   kill-host:HOST   `VCLUSTER kill --cluster ID HOST` (SIGKILL to the host's
#                    init: the whole host goes down at once)
#   freeze-host:HOST `VCLUSTER freeze --cluster ID HOST` (every process of
#                    the host stopped: a hung host, nobody tells hydra)
#   unplug-host:HOST `VCLUSTER unplug --cluster ID HOST` (its link down)
#   signal:SIG       sends SIG to the vcluster process
#   none             nothing (the job ends by itself)
# and waits (up to 30 s) for vcluster to end.  Prints the job's output, then
#   vc-fault: ended after S s with status N
#   vc-fault: inits seen I, left L
#   vc-fault: state left: yes|no
# S counts from the action, N is the exit status of vcluster run ("ended
# after timeout" if it had not ended); I is how many init processes (head
# and hosts) of this cluster were seen while it ran, L how many of them
# still exist (a dead init means an empty PID namespace); the state line
# says whether this cluster's state directory remains.

shopt -s nullglob
vc=$1 action=$2
shift 2
root=${VCLUSTER_STATE_DIR:-/run/vcluster}
out=$(mktemp /tmp/vc-fault.XXXXXX)
trap 'rm -f "$out"' EXIT
"$vc" run "$@" >"$out" 2>&1 &
pid=$!
declare -A inits
seen ()
{
  local f
  for f in "$root"/vc"$pid".*/*.pid; do
    inits[${f##*/}]=$(cat "$f" 2>/dev/null)
  done
}
for _ in $(seq 200); do
  seen
  grep -q '^ready' "$out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
t0=$EPOCHREALTIME
case $action in
  kill-host:* | freeze-host:* | unplug-host:*)
    id=
    for d in "$root"/vc"$pid".*; do id=${d##*/}; done
    "$vc" "${action%%-host:*}" --cluster "$id" "${action#*-host:}" ;;
  signal:*) kill -s "${action#signal:}" "$pid" ;;
  none) ;;
  *) echo "vc-fault.sh: unknown action $action" >&2; kill "$pid"; exit 2 ;;
esac
for _ in $(seq 300); do
  seen
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
  cat "$out"
  echo "vc-fault: ended after timeout"
  kill -TERM "$pid"
  wait "$pid"
  exit 1
fi
wait "$pid"
status=$?
cat "$out"
echo "vc-fault: ended after $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $t0 }") s with status $status"
left=0
for p in "${inits[@]}"; do
  [ -n "$p" ] && grep -qs '^sleep$' "/proc/$p/comm" && left=$((left + 1))
done
echo "vc-fault: inits seen ${#inits[@]}, left $left"
set -- "$root"/vc"$pid".*
[ $# -gt 0 ] && echo "vc-fault: state left: yes" || echo "vc-fault: state left: no"
