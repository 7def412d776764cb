#!/bin/sh
# hosts.sh -- `make bench-hosts`: the cluster benchmarks of bench/cluster/
# run.sh (the floor, the cluster microbenchmark, the applications and their
# MPI twins) with every multi-node run across the separate hosts of a
# virtual cluster (scripts/vcluster, docs/hosts.md): one host per node or
# rank, MPICH talking TCP between them as on a real cluster.  Written to
# bench/results/cluster-hosts.md.
#
#   hosts.sh BUILDDIR OUTDIR RESULT.md
#
# run.sh launches MPI programs with $MPIEXEC and ours with bin/ompcrun,
# which uses $OMPC_MPIEXEC: both become a two-line wrapper calling
# `vcluster run` (its own hosts for every launch, ~0.2-0.3 s of set-up
# outside the timed parts).  The plain MPI programs' ranks get
# hosts-finalize.c preloaded: MPICH 4.0.2 often hangs in MPI_Finalize over
# TCP, which would turn their runs into time-outs; it ends them as our
# runtime ends its own (a barrier, then _exit).  Runs on one node (the libgomp reference, our
# 1 x 2) stay plain runs on this machine.  The report is run.sh's, with
# its title, its description of the set-up and its command changed to say
# so.  Needs root and namespaces: without them it says why and exits 77,
# leaving RESULT.md alone.  Environment: run.sh's BENCH_* variables
# (BENCH_APP_RUNS defaults to 2 here, BENCH_TIMEOUT to 400 s and
# BENCH_APP_TIMEOUT to 600 s: TCP is slower; at load 16 floor.c took over
# 180 s and cg over 120 s), VCLUSTER (the vcluster script).

set -u
build=$(cd "$1" && pwd) || exit 2
out=$2
result=$3
here=$(cd "$(dirname "$0")" && pwd)
vc=${VCLUSTER:-$here/../../scripts/vcluster}
vc=$(cd "$(dirname "$vc")" && pwd)/$(basename "$vc")

if ! why=$("$vc" check 2>&1); then
  echo "bench-hosts: not run: $why" >&2
  exit 77
fi
mkdir -p "$out" || exit 2
launcher=$out/vcluster-mpiexec
printf '#!/bin/sh\n# mpiexec across a virtual cluster (bench/cluster/hosts.sh).\nexec %s run "$@"\n' "$vc" > "$launcher"
shim=$out/hosts-finalize.so
mpicc -O2 -shared -fPIC -o "$shim" "$here/hosts-finalize.c" || exit 1
mpi_launcher=$out/vcluster-mpiexec-mpi
printf '#!/bin/sh\n# mpiexec across a virtual cluster for plain MPI programs (bench/cluster/hosts.sh).\nexec %s run -genv LD_PRELOAD %s "$@"\n' "$vc" "$shim" > "$mpi_launcher"
chmod +x "$launcher" "$mpi_launcher"

# The floor across the same hosts, as docs/hosts.md measured it too: the
# virtual cluster's own ping-pong, 2 hosts.
floor_hosts=
if mpicc -O2 -o "$out/mpi-pingpong" "$here/../../testsuite/ompcluster.hosts/mpi-pingpong.c" \
     > "$out/pingpong.log" 2>&1 \
   && timeout -k 5 120 "$mpi_launcher" -n 2 "$out/mpi-pingpong" 500 >> "$out/pingpong.log" 2>&1; then
  floor_hosts=$(grep -o 'round trip [0-9.]* us, MPI_Barrier [0-9.]* us' "$out/pingpong.log" | tail -1)
fi

# BENCH_HOSTS_REUSE=1 only rewrites a RESULT.md.run that an earlier run
# left (run.sh wrote its report, then failed: it is read as it runs, and
# an edit of it meanwhile broke its last lines once).
if [ "${BENCH_HOSTS_REUSE:-0}" != 1 ]; then
  rm -f "$result.run"
  BENCH_APP_RUNS=${BENCH_APP_RUNS:-2} BENCH_TIMEOUT=${BENCH_TIMEOUT:-400} \
    BENCH_APP_TIMEOUT=${BENCH_APP_TIMEOUT:-600} \
    MPIEXEC=$mpi_launcher OMPC_MPIEXEC=$launcher \
    "$here/run.sh" "$build" "$out" "$result.run" ||
    echo "bench-hosts: run.sh failed (status $?)" >&2
fi
if ! grep -q '^## Command' "$result.run" 2>/dev/null; then
  echo "bench-hosts: run.sh wrote no complete report ($result.run)" >&2
  exit 1
fi

mpich=$(mpiexec --version 2>/dev/null | grep -i 'version:' | head -1 | sed 's/^ *//')
awk -v pp="$floor_hosts" -v mpich="$mpich" '
NR == 1 {
  print "# Cluster costs across hosts: ompcluster over TCP between separate hosts"
  next
}
/^Written by `make bench-cluster`/ { sub(/make bench-cluster/, "make bench-hosts") }
/^All "nodes" are MPI ranks on this one machine/ {
  print "Every node is a separate host of a virtual cluster (scripts/vcluster:"
  print "network, UTS, IPC, mount and PID namespaces joined by veth pairs and a"
  print "bridge, docs/hosts.md): MPICH talks TCP between them, as on a real"
  print "cluster, and each launch has hosts of its own. P x T means P hosts of T"
  print "threads; 1 x 2 and the libgomp reference run on one host. The hosts"
  print "share this machine'"'"'s 2 cores: 2 x 1 fills them, 2 x 2 and 4 x 1"
  print "oversubscribe them (marked). The floor of section 1 is measured across"
  print "the same hosts (2 hosts, TCP)."
  if (pp != "")
    print "The virtual cluster'"'"'s own ping-pong (testsuite/ompcluster.hosts/mpi-pingpong.c, 2 hosts): 4 KiB " pp "."
  skip = 2
  next
}
skip > 0 { skip--; next }
/^mpich: *$/ { print "mpich: " mpich; next }
/make bench-cluster/ { sub(/make bench-cluster/, "make bench-hosts") }
/^# = .*run\.sh/ { print "# = bench/cluster/hosts.sh BUILD OUTDIR RESULT.md (run.sh through vcluster run)" }
{ print }
' "$result.run" > "$result.tmp" || exit 1
if ! grep -q 'virtual cluster' "$result.tmp"; then
  echo "bench-hosts: run.sh's report changed: the description of the set-up was not replaced" >&2
  { echo "**Every multi-node run below went across the hosts of a virtual cluster"
    echo "(bench/cluster/hosts.sh), not through shared memory, whatever the text says.**"
    echo; cat "$result.tmp"; } > "$result.tmp2" && mv "$result.tmp2" "$result.tmp"
fi
mv "$result.tmp" "$result"
rm -f "$result.run"
echo "bench-hosts: wrote $result" >&2
