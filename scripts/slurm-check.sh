#!/bin/bash
# slurm-check.sh -- `make check-slurm`: ompcluster jobs launched by a real
# Slurm (Debian's slurm-wlm and munge), which this script installs if they
# are missing, configures privately and starts itself.
#
# Set-up.  Everything lives in a fresh directory under ${TMPDIR:-/tmp}: a
# munge key and socket, slurm.conf (SLURM_CONF points every client at it),
# the controller's state, the spool and the logs.  munged, slurmctld and
# slurmd run in the foreground as children of this script, on ports that
# no other process listens on; one node, this machine, declared with 4
# CPUs (more than it may have: SlurmdParameters=config_overrides) so that
# 2 to 4 tasks fit.  Nothing system-wide is written but the packages
# (their post-install scripts make /etc/munge/munge.key, unused here, and,
# where systemd runs, start the system's munged, which is left alone).
# At the end, and when a test fails or the script is interrupted, every
# process that carries this run's tag in its environment (the daemons, the
# jobs' tasks, the hosts' inits) or holds one of its files open
# (slurmstepd) is killed and the directory removed
# (OMPC_SLURM_KEEP=1 keeps it for a look).
#
# Tests, on one node: srun at 2 tasks (--mpi=pmi2, and plain srun through
# MpiDefault=pmi2), the program's exit status through srun, srun
# --mpi=none refused with a message, sbatch with bin/ompcrun inside (hydra
# in the allocation) and with srun inside (OMPC_MPIEXEC), scancel of a
# running job, a rank killed with SIGKILL (with and without srun -K), a
# rank's abort(), the node's slurmd killed under a running job.  Then the
# daemons are stopped and, where root may make network, UTS, IPC, mount
# and PID namespaces with veth pairs and a bridge, a cluster of 2 hosts
# (vhost1, vhost2; one slurmd each, slurmctld on a head, as scripts/vcluster
# builds hosts) runs srun -N 2, sbatch -N 2 with ompcrun and with srun
# inside, one host's slurmd killed and one host powered off.  After each
# test no process of its program and no slurmstepd may remain.  About 4
# minutes; not part of make check.
#
# Prints PASS:/FAIL:/UNSUPPORTED: lines (also in
# $OMPC_BUILD/testsuite-slurm/slurm.sum) and closes with "N passed, N
# failed, N skipped"; exit status 1 if anything failed.  Without root (to
# install the packages and run the daemons as SlurmUser=root) every test is
# reported UNSUPPORTED.

set -u
: "${OMPC_BUILD:?}" "${OMPC_SRCDIR:?}"
out="$OMPC_BUILD/testsuite-slurm"
rm -rf "$out"
mkdir -p "$out"
sum="$out/slurm.sum"
: >"$sum"
tests1="srun-pmi2 srun-mpidefault srun-status srun-no-pmi sbatch-ompcrun
 sbatch-srun scancel rank-killed rank-killed-K rank-abort slurmd-killed"
tests2="hosts-srun hosts-sbatch-ompcrun hosts-sbatch-srun hosts-slurmd-killed
 hosts-host-down"
tests="$tests1 $tests2"

result () { echo "$1: $2" | tee -a "$sum"; }
say () { echo "slurm-check.sh: $*"; }

summary ()
{
  awk '/^PASS:/ {p++} /^FAIL:/ {f++} /^UNSUPPORTED:/ {s++}
       END { printf "%d passed, %d failed, %d skipped\n", p, f, s;
	     exit (f > 0) }' "$sum"
}

unsupported_all ()
{
  for t in $tests; do result UNSUPPORTED "slurm $t ($1)"; done
  summary
  exit
}

[ "$(id -u)" = 0 ] || unsupported_all "needs root: installs slurm-wlm and runs slurmd"

# ---------------------------------------------------------------------------
# Installation: quiet, and nothing when the packages are there.
"$OMPC_SRCDIR/scripts/install-deps.sh" slurm >"$out/install.log" 2>&1 || {
  tail -20 "$out/install.log"
  unsupported_all "installing slurm-wlm and munge failed: $out/install.log"
}

# ---------------------------------------------------------------------------
# Set-up of the private cluster.
dir=$(mktemp -d "${TMPDIR:-/tmp}/ompc-slurm.XXXXXX")
chmod 755 "$dir"		# munged wants its socket's directory open
tag="OMPC_SLURM_TAG=$dir"
export OMPC_SLURM_TAG="$dir"
host=$(hostname -s)

# Every process started for this run: it carries the tag in its
# environment (the daemons from this script, the tasks from the job's
# environment, which srun and sbatch propagate), or, like slurmstepd, which
# overwrites its environment with its title, holds a file of the run open.
tagged_pids ()
{
  local p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    if tr "\0" "\n" 2>/dev/null <"$p/environ" | grep -qxF -- "$tag" \
       || ls -l "$p/fd/" 2>/dev/null | grep -qF -- "$dir/"; then
      echo "${p#/proc/}"
    fi
  done
  true
}

# The step daemons of this run's cluster.
stepds ()
{
  local p
  for p in $(pgrep -x slurmstepd); do
    ls -l "/proc/$p/fd/" 2>/dev/null | grep -qF -- "$dir/" && echo $p
  done
  true
}

daemons=()
teardown ()
{
  trap - EXIT INT TERM HUP
  local p pids
  for p in "${daemons[@]}"; do kill -TERM "$p" 2>/dev/null; done
  sleep 1
  for i in 1 2 3; do
    pids=$(tagged_pids)
    [ -z "$pids" ] && break
    kill -KILL $pids 2>/dev/null
    sleep 0.5
  done
  wait 2>/dev/null
  pids=$(tagged_pids)
  [ -n "$pids" ] && say "left running after tear-down: $(ps -o pid=,args= -p "$(echo $pids | tr ' ' ,)")"
  if [ "${OMPC_SLURM_KEEP:-0}" = 1 ]; then
    say "kept $dir"
  else
    cp "$dir"/log/*.log "$out/" 2>/dev/null
    rm -rf "$dir"
  fi
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Two free TCP ports for slurmctld and slurmd.
port_free () { ! ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }
for i in $(seq 50); do
  ctld_port=$((20000 + RANDOM % 20000))
  slurmd_port=$((ctld_port + 1))
  port_free $ctld_port && port_free $slurmd_port && break
done

mkdir -p "$dir/munge" "$dir/run" "$dir/state" "$dir/spool" "$dir/log" "$dir/work"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$dir/munge/munge.key"
sock="$dir/run/munge.sock"

cat >"$dir/slurm.conf" <<EOF
# A one-node cluster for make check-slurm (scripts/slurm-check.sh).
ClusterName=ompctest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmi2
ReturnToService=2
SlurmdParameters=config_overrides
SlurmdTimeout=5
KillWait=20
InactiveLimit=0
MinJobAge=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 Sockets=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=1024 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
mkdir -p "$dir/spool/$host"

/usr/sbin/munged --foreground --key-file="$dir/munge/munge.key" \
  --socket="$sock" --pid-file="$dir/run/munged.pid" \
  --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed" \
  >"$dir/log/munged.out" 2>&1 &
daemons+=($!)
for i in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
daemons+=($!)
start_slurmd ()
{
  slurmd -D -f "$SLURM_CONF" -N "$host" >>"$dir/log/slurmd.out" 2>&1 &
  slurmd_pid=$!
  daemons+=($slurmd_pid)
}
start_slurmd

# Waits until the node is idle (up to 30 s).
node_idle ()
{
  local i
  for i in $(seq 60); do
    sinfo -h -n "$host" -o %t 2>/dev/null | grep -qx idle && return 0
    sleep 0.5
  done
  return 1
}
if ! node_idle; then
  say "the private Slurm cluster did not come up; its logs:"
  tail -n 20 "$dir"/log/*
  unsupported_all "slurmctld or slurmd did not start"
fi
say "a private Slurm cluster runs in $dir (node $host, ports $ctld_port-$slurmd_port); $(srun --version)"

# ---------------------------------------------------------------------------
# The programs.
cd "$dir/work"
for p in team spin ../ompcluster.failures/crash-abort; do
  b=${p##*/}
  if ! "$OMPC_BUILD/bin/ompcc" -O2 "$OMPC_SRCDIR/testsuite/slurm/$p.c" \
       -o "slurm-${b%%-*}" \
       >"$out/${p##*/}.compile.log" 2>&1; then
    cat "$out/${p##*/}.compile.log"
    for t in $tests; do result FAIL "slurm $t (compiling $p.c failed)"; done
    summary
    exit
  fi
done
export OMP_NUM_THREADS=1

# The processes running the test program PROG (srun starts ./PROG as
# DIR/work/./PROG, hydra as ./PROG; not srun's own command line, which
# names it too): the names are the run's own.
prog_pids () { pgrep -f -- "^([^ ]*/)?$1( |\$)"; }

# The processes of PROG and the step daemons still
# there after a test: none may be left once the job ended (slurmstepd gets
# 5 s to clean up).
leftovers ()
{
  local i p l
  for i in $(seq 25); do
    l=$(stepds)
    for p in $(prog_pids "$1"); do
      [ "$p" = $$ ] || l="$l $p"
    done
    l=$(echo $l)
    [ -z "$l" ] && return 0
    sleep 0.2
  done
  ps -o pid=,stat=,args= -p "$(echo $l | tr ' ' ,)"
  return 1
}

# check NAME STATUS WANT_STATUS OUTPUT-FILE PROG [REGEX...]: PASS if the
# status is WANT_STATUS, every REGEX (grep -E) is in the output and no
# process of PROG is left; otherwise FAIL, with the output in the log.
check ()
{
  local name=$1 st=$2 want=$3 log=$4 prog=$5 why= re
  shift 5
  [ "$st" = "$want" ] || why="status $st, $want expected"
  for re in "$@"; do
    grep -qE -- "$re" "$log" || why="${why:+$why; }no '$re' in the output"
  done
  local left
  left=$(leftovers "$prog") || why="${why:+$why; }processes left: $left"
  if [ -z "$why" ]; then
    result PASS "slurm $name"
  else
    result FAIL "slurm $name ($why)"
    sed 's/^/    | /' "$log" | head -40
    # Whatever the test left must not disturb the next one.
    scancel --quiet --user=root >/dev/null 2>&1
    kill -KILL $(prog_pids "$prog") 2>/dev/null
  fi
}

# Waits for the line "running" in FILE (up to 30 s).
wait_running ()
{
  local i
  for i in $(seq 150); do
    grep -q '^running' "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}

# The process id of rank RANK of PROG, found by its PMI_RANK.
rank_pid ()
{
  local p
  for p in $(prog_pids "$2"); do
    tr "\0" "\n" 2>/dev/null </proc/$p/environ | grep -qx "PMI_RANK=$1" \
      && grep -q ompcluster-mpi /proc/$p/maps 2>/dev/null && { echo $p; return; }
  done
}

run () { timeout -k 5 "$1" "${@:2}"; }

# ---------------------------------------------------------------------------
# The tests.

# 2 tasks, 2 threads each: one team of 4 threads across the ranks.
t=srun-pmi2
OMP_NUM_THREADS=2 run 60 srun -n 2 -c 2 --mpi=pmi2 ./slurm-team >"$out/$t.log" 2>&1
check $t $? 0 "$out/$t.log" slurm-team '^team ok: 4 threads on 1 hosts?$'

# MpiDefault=pmi2 in slurm.conf: a plain srun needs no --mpi.
t=srun-mpidefault
run 60 srun -n 2 ./slurm-team >"$out/$t.log" 2>&1
check $t $? 0 "$out/$t.log" slurm-team '^team ok: 2 threads on 1 hosts?$'

# The program's status is srun's, every rank leaving with it.
t=srun-status
run 60 srun -n 2 --mpi=pmi2 ./slurm-team 7 >"$out/$t.log" 2>&1
check $t $? 7 "$out/$t.log" slurm-team '^team ok: 2 threads on 1 hosts?$' 'Exited with exit code 7'

# Without PMI every task would start MPI alone and run the program by
# itself: refused, saying what to do.
t=srun-no-pmi
run 60 srun -n 2 --mpi=none ./slurm-team >"$out/$t.log" 2>&1
check $t $? 1 "$out/$t.log" slurm-team "MPI joined 1 of them.*srun --mpi=pmi2"
grep -q '^team ok' "$out/$t.log" && result FAIL "slurm $t (the program ran)"

# sbatch, bin/ompcrun inside: hydra's mpiexec in the allocation starts its
# proxies with srun.  sbatch --wait returns the job's status.
t=sbatch-ompcrun
cat >job-ompcrun.sh <<EOF
#!/bin/sh
#SBATCH --nodes=1 --ntasks=2 --cpus-per-task=1
$OMPC_BUILD/bin/ompcrun -n 2 ./slurm-team 5
EOF
run 90 sbatch --wait -o "$out/$t.job.log" job-ompcrun.sh >"$out/$t.log" 2>&1
st=$?
cat "$out/$t.job.log" >>"$out/$t.log" 2>/dev/null
check $t $st 5 "$out/$t.log" slurm-team '^team ok: 2 threads on 1 hosts?$'

# sbatch, bin/ompcrun launching through srun (OMPC_MPIEXEC).
t=sbatch-srun
cat >job-srun.sh <<EOF
#!/bin/sh
#SBATCH --nodes=1 --ntasks=2 --cpus-per-task=2
OMPC_MPIEXEC="srun --mpi=pmi2 --cpu-bind=none" $OMPC_BUILD/bin/ompcrun -n 2 -t 2 ./slurm-team
EOF
run 90 sbatch --wait -o "$out/$t.job.log" job-srun.sh >"$out/$t.log" 2>&1
st=$?
cat "$out/$t.job.log" >>"$out/$t.log" 2>/dev/null
check $t $st 0 "$out/$t.log" slurm-team '^team ok: 4 threads on 1 hosts?$'

# scancel of a running batch job: its steps get SIGTERM; the runtime names
# the signal and the ranks leave at once, not KillWait (20 s) later when
# Slurm's SIGKILL comes (cluster/pmi.c); the job is CANCELLED, nothing left.
t=scancel
cat >job-spin.sh <<EOF
#!/bin/sh
#SBATCH --nodes=1 --ntasks=2
srun --mpi=pmi2 ./slurm-spin
EOF
jobid=$(sbatch --parsable -o "$out/$t.job.log" job-spin.sh 2>"$out/$t.log")
if wait_running "$out/$t.job.log"; then
  sleep 1
  t0=$(date +%s)
  scancel "$jobid"
  for i in $(seq 100); do
    prog_pids slurm-spin >/dev/null || break
    sleep 0.1
  done
  gone=$(( $(date +%s) - t0 ))
  for i in $(seq 100); do
    state=$(scontrol show job "$jobid" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    [ "$state" = COMPLETING ] || break
    sleep 0.2
  done
  echo "job $jobid: $state, ranks gone $gone s after scancel" >>"$out/$t.log"
  sleep 1
  cat "$out/$t.job.log" >>"$out/$t.log"
  [ "$state" = CANCELLED ]; st=$?
  check $t $st 0 "$out/$t.log" slurm-spin "CANCELLED" 'SIGTERM' \
    'ranks gone [0-5] s after scancel'
else
  cat "$out/$t.job.log" >>"$out/$t.log" 2>/dev/null
  scancel "$jobid" 2>/dev/null
  check $t no-start 0 "$out/$t.log" slurm-spin
fi

# A rank killed with SIGKILL.  srun reports it but, without -K, leaves
# the other rank running: the runtime's heartbeat finds rank 1 gone and
# ends the job within OMPC_HEARTBEAT (5 s), saying so; srun's status is
# 137, the killed task's (hydra's mpiexec returns 9 at once).
t=rank-killed
srun -n 2 --mpi=pmi2 ./slurm-spin >"$out/$t.log" 2>&1 &
job=$!
if wait_running "$out/$t.log" && victim=$(rank_pid 1 slurm-spin) && [ -n "$victim" ]; then
  t0=$(date +%s)
  kill -KILL "$victim"
  run 30 tail --pid=$job -f /dev/null
  wait $job; st=$?
  echo "job ended $(( $(date +%s) - t0 )) s after the kill" >>"$out/$t.log"
  check $t $st 137 "$out/$t.log" slurm-spin 'task 1: Killed' \
    'rank 1 on host .* stopped answering' 'job ended ([0-9]|1[0-5]) s after'
else
  kill $job 2>/dev/null; wait $job
  check $t no-start 0 "$out/$t.log" slurm-spin
fi

# The same with srun -K (--kill-on-bad-exit, KillOnBadExit=1): Slurm
# sends the other ranks SIGTERM at once, and they leave at once.
t=rank-killed-K
srun -K -n 2 --mpi=pmi2 ./slurm-spin >"$out/$t.log" 2>&1 &
job=$!
if wait_running "$out/$t.log" && victim=$(rank_pid 1 slurm-spin) && [ -n "$victim" ]; then
  t0=$(date +%s)
  kill -KILL "$victim"
  run 30 tail --pid=$job -f /dev/null
  wait $job; st=$?
  echo "job ended $(( $(date +%s) - t0 )) s after the kill" >>"$out/$t.log"
  check $t $st 137 "$out/$t.log" slurm-spin 'task 1: Killed' 'job ended [0-5] s after'
else
  kill $job 2>/dev/null; wait $job
  check $t no-start 0 "$out/$t.log" slurm-spin
fi

# A rank's fatal error (abort() on rank 1): the runtime names it, asks
# slurmstepd to end the step and leaves with 134; Slurm kills rank 0 with
# SIGKILL, so srun's status is 137, where hydra's mpiexec returns 134
# (docs/slurm.md).
t=rank-abort
run 60 srun -n 2 --mpi=pmi2 ./slurm-crash >"$out/$t.log" 2>&1
check $t $? 137 "$out/$t.log" slurm-crash 'rank 1: fatal signal SIGABRT' \
  'task 1: Exited with exit code 134'
grep -q 'not reached' "$out/$t.log" && result FAIL "slurm $t (the program went on)"

# The node's slurmd killed under a running job.  The step's slurmstepd
# and the ranks carry on; the controller declares the node down after
# SlurmdTimeout and srun reports "Node failure" (with status 0: no task
# reported one).  slurmd, started again, kills what is left of the job.
# The ranks themselves saw no failure (their process manager lives): the
# runtime has nothing to report.  (With several hosts, hosts-slurmd-killed
# below, the other hosts' ranks get SIGTERM and the job's status is 143.)
t=slurmd-killed
srun -n 2 --mpi=pmi2 ./slurm-spin >"$out/$t.log" 2>&1 &
job=$!
if wait_running "$out/$t.log"; then
  t0=$(date +%s)
  kill -KILL "$slurmd_pid"
  wait "$slurmd_pid" 2>/dev/null
  run 120 tail --pid=$job -f /dev/null
  wait $job; st=$?
  echo "srun ended $(( $(date +%s) - t0 )) s after the kill, status $st" >>"$out/$t.log"
  prog_pids slurm-spin >/dev/null && echo "ranks alive while slurmd is down" >>"$out/$t.log"
  start_slurmd
  node_idle || echo "the node did not come back" >>"$out/$t.log"
  check $t 0 0 "$out/$t.log" slurm-spin 'Node failure' 'ranks alive while slurmd is down'
else
  kill $job 2>/dev/null; wait $job
  check $t no-start 0 "$out/$t.log" slurm-spin
fi

# ---------------------------------------------------------------------------
# Several hosts: the same on a cluster of separate hosts in Linux
# namespaces, made as scripts/vcluster makes them (docs/hosts.md).  The
# head (its own network and hostname, vhead, a bridge at $vnet.254) runs
# slurmctld and the clients; each host vhostI (its own network, hostname,
# IPC, /dev/shm and PID namespace, eth0 at $vnet.I on the bridge) runs a
# slurmd, so that ranks on two hosts talk TCP.  munged stays outside: its
# socket is a file.  Killing a host's init ends every process on it.
stop_cluster ()
{
  local p
  for p in "${daemons[@]:1}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${daemons[@]:1}"; do wait "$p" 2>/dev/null; done
  daemons=("${daemons[0]}")	# munged stays
}

ns_why=
for c in unshare nsenter setpriv ip bridge; do
  command -v $c >/dev/null 2>&1 || { ns_why="'$c' not found"; break; }
done
[ -z "$ns_why" ] && ! out_ns=$(unshare --net --uts --ipc --mount --pid --fork \
  --mount-proc sh -c 'ip link add vs-probe0 type veth peer name vs-probe1 &&
		      ip link add vs-probe-br type bridge && hostname vs-probe' 2>&1) &&
  ns_why="namespaces, veth or bridges unavailable: $out_ns"
if [ -n "$ns_why" ]; then
  for t in $tests2; do result UNSUPPORTED "slurm $t ($ns_why)"; done
  summary
  exit
fi

stop_cluster
vnet=198.18.0
nhosts=2
{
  echo "127.0.0.1 localhost"
  echo "$vnet.254 vhead"
  for i in $(seq $nhosts); do echo "$vnet.$i vhost$i"; done
} >"$dir/hosts"

# Starts an init in fresh namespaces: NAME, the init's shell script (which
# gets DIR and NAME as $1 and $2), then unshare's options; sets REPLY to
# the init's PID.  It dies with this script (parent-death signal) and
# carries the run's tag.
start_ns ()
{
  local name=$1 script=$2
  shift 2
  setpriv --pdeathsig KILL unshare --fork --kill-child "$@" \
    sh -c "$script"' && touch "$1/$2.ready" && exec sleep infinity' \
    sh "$dir" "$name" 2>>"$dir/log/$name.ns.log" &
  local u=$! i c=
  disown $u
  for i in $(seq 100); do
    [ -e "$dir/$name.ready" ] && break
    sleep 0.05
  done
  c=$(cat "/proc/$u/task/$u/children" 2>/dev/null)
  REPLY=${c%% *}
  [ -e "$dir/$name.ready" ] && [ -n "$REPLY" ]
}

hosts_up=1
start_ns head 'hostname vhead && mount --bind "$1/hosts" /etc/hosts &&
  ip link set lo up && ip link add br0 type bridge &&
  ip addr add '$vnet'.254/24 dev br0 && ip link set br0 up' \
  --net --uts --mount --propagation private || hosts_up=0
head=$REPLY
hostpid=()
for i in $(seq $nhosts); do
  [ $hosts_up = 1 ] || break
  start_ns vhost$i 'hostname "$2" &&
    mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
    mount --bind "$1/hosts" /etc/hosts && ip link set lo up' \
    --net --uts --ipc --mount --pid --mount-proc --propagation private ||
    { hosts_up=0; break; }
  hostpid[$i]=$REPLY
  nsenter -t $head -n ip link add vh$i type veth peer name eth0 netns $REPLY &&
    nsenter -t $head -n ip link set vh$i master br0 up &&
    nsenter -t $REPLY -n ip addr add $vnet.$i/24 dev eth0 &&
    nsenter -t $REPLY -n ip link set eth0 up || hosts_up=0
done
for i in $(seq $nhosts); do
  for t in $(seq 100); do
    nsenter -t $head -n bridge link show dev vh$i 2>/dev/null |
      grep -q 'state forwarding' && break
    sleep 0.05
  done
done

conf2="$dir/slurm-hosts.conf"
sed -e "s/^SlurmctldHost=.*/SlurmctldHost=vhead($vnet.254)/" \
    -e "s/^SlurmctldPort=.*/SlurmctldPort=6817/" \
    -e "s/^SlurmdPort=.*/SlurmdPort=6818/" \
    -e "s|^StateSaveLocation=.*|StateSaveLocation=$dir/state2|" \
    -e "/^NodeName=/d" -e "/^PartitionName=/d" "$SLURM_CONF" >"$conf2"
echo "NodeName=vhost[1-$nhosts] NodeAddr=$vnet.[1-$nhosts] CPUs=2 Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1024 State=UNKNOWN" >>"$conf2"
echo "PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP" >>"$conf2"
export SLURM_CONF="$conf2"
mkdir -p "$dir/state2"
inhead () { nsenter -t $head -n -u -m --wd="$PWD" "$@"; }
run_inhead () { run "$1" nsenter -t $head -n -u -m --wd="$PWD" "${@:2}"; }
slurmd_on ()
{
  mkdir -p "$dir/spool/vhost$1"
  nsenter -t ${hostpid[$1]} -n -u -i -m -p --wd="$PWD" \
    slurmd -D -f "$SLURM_CONF" -N vhost$1 >>"$dir/log/slurmd-vhost$1.out" 2>&1 &
  slurmd_nsenter[$1]=$!
  daemons+=($!)
}
if [ $hosts_up = 1 ]; then
  inhead slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld-hosts.out" 2>&1 &
  daemons+=($!)
  for i in $(seq $nhosts); do slurmd_on $i; done
  hosts_up=0
  for i in $(seq 60); do
    [ "$(inhead sinfo -h -o '%t %D' 2>/dev/null)" = "idle $nhosts" ] &&
      { hosts_up=1; break; }
    sleep 0.5
  done
fi
if [ $hosts_up = 0 ]; then
  say "the cluster of $nhosts hosts did not come up; its logs:"
  tail -n 20 "$dir"/log/*hosts* "$dir"/log/*vhost* "$dir"/log/*.ns.log 2>/dev/null
  for t in $tests2; do result FAIL "slurm $t (the cluster of hosts did not come up)"; done
  summary
  exit
fi
say "a cluster of $nhosts hosts runs (vhost1-$nhosts, slurmctld on vhead)"

# The slurmd process of host I.
slurmd_pid_on ()
{
  local p
  for p in $(pgrep -x slurmd); do
    tr "\0" "\n" 2>/dev/null </proc/$p/cmdline | grep -qx vhost$1 &&
      tr "\0" "\n" 2>/dev/null </proc/$p/environ | grep -qxF -- "$tag" && echo $p
  done
  true
}

# One rank on each host: the team spans both.
t=hosts-srun
OMP_NUM_THREADS=2 run_inhead 60 srun -N 2 -n 2 -c 2 --mpi=pmi2 ./slurm-team 4 >"$out/$t.log" 2>&1
check $t $? 4 "$out/$t.log" slurm-team '^team ok: 4 threads on 2 hosts$' \
  'Exited with exit code 4'

# sbatch on two nodes, bin/ompcrun inside: hydra starts its proxies with
# srun, one per host.
t=hosts-sbatch-ompcrun
printf '#!/bin/sh\n#SBATCH --nodes=2 --ntasks-per-node=1\n%s -n 2 ./slurm-team 6\n' \
  "$OMPC_BUILD/bin/ompcrun" >job-hosts-ompcrun.sh
run_inhead 90 sbatch --wait -o "$out/$t.job.log" job-hosts-ompcrun.sh >"$out/$t.log" 2>&1
st=$?
cat "$out/$t.job.log" >>"$out/$t.log" 2>/dev/null
check $t $st 6 "$out/$t.log" slurm-team '^team ok: 2 threads on 2 hosts$'

# sbatch on two nodes, srun inside, the threads from --cpus-per-task.
t=hosts-sbatch-srun
printf '#!/bin/sh\n#SBATCH --nodes=2 --ntasks-per-node=1 --cpus-per-task=2\n%s\n%s\n' \
  'export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK' \
  'srun --mpi=pmi2 --cpu-bind=none ./slurm-team' >job-hosts-srun.sh
run_inhead 90 sbatch --wait -o "$out/$t.job.log" job-hosts-srun.sh >"$out/$t.log" 2>&1
st=$?
cat "$out/$t.job.log" >>"$out/$t.log" 2>/dev/null
check $t $st 0 "$out/$t.log" slurm-team '^team ok: 4 threads on 2 hosts$'

# vhost2's slurmd killed under a job on both hosts: the ranks carry on
# until the controller declares vhost2 down (SlurmdTimeout), srun reports
# the node failure and vhost1's slurmstepd sends rank 0 SIGTERM: the
# runtime names it and the job's status is 143.  vhost2's slurmd, started
# again, kills what is left there.
t=hosts-slurmd-killed
inhead srun -N 2 -n 2 --mpi=pmi2 ./slurm-spin >"$out/$t.log" 2>&1 &
job=$!
if wait_running "$out/$t.log" && victim=$(slurmd_pid_on 2) && [ -n "$victim" ]; then
  t0=$(date +%s)
  kill -KILL $victim
  wait ${slurmd_nsenter[2]} 2>/dev/null
  run 120 tail --pid=$job -f /dev/null
  wait $job; st=$?
  echo "srun ended $(( $(date +%s) - t0 )) s after the kill, status $st" >>"$out/$t.log"
  slurmd_on 2
  for i in $(seq 60); do
    inhead sinfo -h -n vhost2 -o %t 2>/dev/null | grep -qx idle && break
    sleep 0.5
  done
  check $t 0 0 "$out/$t.log" slurm-spin 'Node failure on vhost2' \
    'rank 0: fatal signal SIGTERM' 'status 143$'
else
  kill $job 2>/dev/null; wait $job
  check $t no-start 0 "$out/$t.log" slurm-spin
fi

# vhost2 powered off (its init killed: slurmd, slurmstepd and rank 1 die
# at once): the runtime's heartbeat on rank 0 names the host and ends the
# job with status 69, as under hydra.  srun itself returns when the
# controller declares vhost2 down or KillWait after rank 0's end, which
# ever comes first (Slurm's timing, not checked).
t=hosts-host-down
inhead srun -N 2 -n 2 --mpi=pmi2 ./slurm-spin >"$out/$t.log" 2>&1 &
job=$!
if wait_running "$out/$t.log"; then
  t0=$(date +%s)
  kill -KILL ${hostpid[2]}
  wait ${slurmd_nsenter[2]} 2>/dev/null
  for i in $(seq 600); do
    prog_pids slurm-spin >/dev/null || break
    sleep 0.1
  done
  gone=$(( $(date +%s) - t0 ))
  run 60 tail --pid=$job -f /dev/null
  wait $job; st=$?
  echo "ranks gone $gone s after the power cut" >>"$out/$t.log"
  echo "srun ended $(( $(date +%s) - t0 )) s after the power cut, status $st" >>"$out/$t.log"
  check $t $st 69 "$out/$t.log" slurm-spin \
    'rank 1 on host vhost2 stopped answering' 'ranks gone ([0-9]|1[0-5]) s after'
else
  kill $job 2>/dev/null; wait $job
  check $t no-start 0 "$out/$t.log" slurm-spin
fi

summary
