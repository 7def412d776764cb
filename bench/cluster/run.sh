#!/bin/sh
# run.sh -- `make bench-cluster`: the cluster measurements of issue 7, written
# to one Markdown report.
#
#   run.sh BUILDDIR OUTDIR RESULT.md
#
# 1. The floor (bench/cluster/floor.c, plain MPI, 2 ranks): round trips,
#    MPI_Barrier, MPI_Bcast, MPI_Allreduce, and a protect -> fault ->
#    unprotect cycle of one page.
# 2. Our costs (bench/cluster/cmicro.c, built with bin/ompcc, launched with
#    bin/ompcrun) at 2 nodes x 1 and 2 x 2 threads, each with its ratio to
#    the floor it maps to; and the hybrid comparison 1 x 2 against 2 x 1 and
#    2 x 2 against 4 x 1.
# 3. The applications (bench/apps/): each OpenMP version built with
#    bin/ompcc and run on 2 nodes (and 4, oversubscribed) with OMPC_STATS=1,
#    its MPI twin on as many ranks, and the OpenMP version built with plain
#    gcc -fopenmp on GCC's libgomp at 1 node x 2 threads as the reference.
# Whatever fails is reported as "not run: REASON" or "failed: REASON"; no
# figure is made up.  Environment:
#   BENCH_APP_RUNS   runs of each application configuration (default 3)
#   BENCH_MICRO_RUNS processes per micro construct and configuration, the
#                    median one reported (default 3)
#   BENCH_TIMEOUT    seconds before one micro run is killed (default 60)
#   BENCH_APP_TIMEOUT  the same for an application run (default 120); a
#                    configuration that failed once is not run again
#   BENCH_PARTS      which parts: "floor micro apps" (default all three)
#   BENCH_APPS       which applications (default "jacobi matmul ep cg is is_npb";
#                    is_npb is is_omp.c built with -DIS_BUCKET_MAJOR=1)
#   BENCH_NOTE       a sentence to put in the report
#   BENCH_WRAP       a command put before the floor run and the micro runs
#                    whose threads do not outnumber the processors (2 x 1,
#                    1 x 2 on 2 cores), e.g. "chrt -f 1": on a machine busy
#                    with other work, real-time priority shows what a quiet
#                    machine would give (the report says it was used).
#                    Never the oversubscribed runs: a FIFO-scheduled job
#                    with more runnable threads than processors can hold
#                    the machine for minutes.

set -u
build=$(cd "$1" && pwd) || exit 2
out=$2
result=$3
runs=${BENCH_APP_RUNS:-3}
micro_runs=${BENCH_MICRO_RUNS:-3}
export BENCH_MICRO_RUNS=$micro_runs
tmo=${BENCH_TIMEOUT:-60}
atmo=${BENCH_APP_TIMEOUT:-120}
parts=${BENCH_PARTS:-"floor micro apps"}
wrap=${BENCH_WRAP:-}
here=$(cd "$(dirname "$0")" && pwd)
apps_src=$here/../apps
mkdir -p "$out" || exit 2
log=$out/cluster.log
: > "$log"
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
CC=${CC:-gcc}
ompcc=$build/bin/ompcc
ompcrun=$build/bin/ompcrun
tab=$out/cluster.tab		# KEY VALUE lines gathered for the report
: > "$tab"

say() { echo "bench-cluster: $*" >&2; echo "$*" >> "$log"; }
put() { echo "$*" >> "$tab"; }
get() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); v = $0 } END { print v }' "$tab"; }
has() { echo " $parts " | grep -q " $1 "; }

# First non-empty line of a file, shortened: the reason of a failure.
reason() {
  grep -v '^[[:space:]]*$' "$1" 2>/dev/null | grep -v '^time \|^warmup \|^check \|^verified \|^mpi_' \
    | head -1 | cut -c1-140 | sed 's/|/\\|/g'
}

# Runs "$@" under a timeout, output in $out/last.out (stdout) and
# $out/last.err; sets $status and $why (empty on success).
run() {
  limit=$1
  shift
  timeout -k 5 "$limit" "$@" > "$out/last.out" 2> "$out/last.err"
  status=$?
  why=
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    why="did not end within ${limit} s (killed: hung or too slow)"
  elif [ $status -ne 0 ]; then
    why="exit status $status: $(reason "$out/last.out")$(reason "$out/last.err")"
  fi
  cat "$out/last.out" "$out/last.err" >> "$log"
}

# ---------------------------------------------------------------- build --
build_ok() {			# NAME COMMAND...: compile, record a failure
  name=$1
  shift
  if "$@" > "$out/build.err" 2>&1; then
    return 0
  fi
  put "build_$name $(reason "$out/build.err")"
  say "cannot build $name: $(reason "$out/build.err")"
  return 1
}

have_ompcc=yes
if [ ! -x "$ompcc" ] || [ ! -e "$build/lib/libgomp.so.1" ] || [ ! -e "$build/lib/ompcluster.so" ]; then
  have_ompcc=no
  put "build_ompcc the build tree has no bin/ompcc, lib/libgomp.so.1 and lib/ompcluster.so (run make)"
fi
ompcc_ok() {
  if [ $have_ompcc = no ]; then
    put "build_$1 $(get build_ompcc)"
    return 1
  fi
  build_ok "$@"
}

build_ok floor "$MPICC" -O2 -o "$out/floor" "$here/floor.c" -lpthread
ompcc_ok cmicro "$ompcc" -O2 -o "$out/cmicro" "$here/cmicro.c"
apps=${BENCH_APPS:-"jacobi matmul ep cg is is_npb"}
for a in $apps; do
  # is_npb: is_omp.c with NPB's bucket-major layout of the scattered keys,
  # against the same MPI twin.
  src=$a defs=
  [ "$a" = is_npb ] && src=is defs=-DIS_BUCKET_MAJOR=1
  build_ok "${a}_mpi" "$MPICC" -O2 -I"$apps_src" -o "$out/${a}_mpi" "$apps_src/${src}_mpi.c" -lm
  build_ok "${a}_gomp" "$CC" -O2 -fopenmp $defs -I"$apps_src" -o "$out/${a}_gomp" "$apps_src/${src}_omp.c" -lm
  ompcc_ok "${a}_ompc" "$ompcc" -O2 $defs -I"$apps_src" -o "$out/${a}_ompc" "$apps_src/${src}_omp.c" -lm
done

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)

# ---------------------------------------------------------------- floor --
floor_names="rtt_8b rtt_4k barrier bcast_8b bcast_barrier allreduce_8b fault_cycle fault_cycle_busy"
if has floor; then
  if [ -x "$out/floor" ]; then
    say "floor"
    run "$tmo" $wrap "$MPIEXEC" -n 2 "$out/floor"
    if [ -n "$why" ]; then
      put "floor_failed $why"
    else
      awk '$1 == "floor" { print "floor_" $2, $3, $4 }' "$out/last.out" >> "$tab"
    fi
  else
    put "floor_failed $(get build_floor)"
  fi
fi

# ---------------------------------------------------------------- micro --
micro_tests="barrier parallel read_fault read_fault_cold read_fault_busy read_seq_cold write_fault write_fault_absent lock critical atomic dynamic single reduction"
configs="2x1 2x2 1x2 4x1"
if has micro; then
  for c in $configs; do
    p=${c%x*}
    t=${c#*x}
    for m in $micro_tests; do
      k="micro_${c}_$m"
      if [ ! -x "$out/cmicro" ]; then
	put "$k not run: cmicro not built: $(get build_cmicro)"
	continue
      fi
      say "cmicro $c $m"
      w=
      [ $((p * t)) -le "$(nproc)" ] && w=$wrap
      # Several processes: one process's figure can land in either of two
      # modes (a remote fault at 2x1 measured 6 or 10 us from one start to
      # the next, whichever core the service threads got); the median
      # process's line is reported.
      lines= fail=
      for r in $(seq 1 "$micro_runs"); do
	run "$tmo" $w "$ompcrun" -n "$p" -t "$t" "$out/cmicro" "$p" "$m"
	l=$(awk '$1 == "cmicro" { print $3, $4 }' "$out/last.out")
	f=$(sed -n 's/^cfail [^ ]* //p' "$out/last.out" | head -1)
	[ -n "$f" ] && fail=$f
	[ -n "$why" ] && break
	[ -n "$l" ] && lines="$lines$l
"
      done
      line=$(printf '%s' "$lines" | sort -g | awk '{ v[NR] = $0 } END { if (NR) print v[int((NR + 1) / 2)] }')
      if [ -n "$fail" ]; then
	put "$k failed: $fail"
      elif [ -n "$why" ]; then
	put "$k failed: $why"
      elif [ -z "$line" ]; then
	put "$k failed: no result line"
      else
	put "$k $line"
      fi
    done
  done
fi

# ----------------------------------------------------------------- apps --
# Sum over the ranks of what OMPC_STATS reports each rank sent: its
# "ompcluster stats: rank R: ..." line holds "collectives N (B bytes)" (the
# module's MPI collectives) and "messages sent N (B bytes)" (point to point,
# DSM traffic included).  Prints "BYTES MSGS", or "n/a" without such lines.
ompc_stats() {
  cat "$@" | awk '/^ompcluster stats: rank/ {
    for (i = 2; i < NF; i++)
      if ($i == "collectives" || ($i == "sent" && $(i - 1) == "messages")) {
        n = $(i + 1); x = $(i + 2); gsub(/[^0-9]/, "", n); gsub(/[^0-9]/, "", x)
        m += n; b += x; seen++
      }
  } END { if (seen) print b, m; else print "n/a" }'
}

# What the DSM did, summed over the ranks (regions and barriers: the most
# any rank saw), from the same OMPC_STATS output:
# "REGIONS BARRIERS READ_FAULTS WRITE_FAULTS FETCHED FETCH_BYTES DIFFS
# DIFF_BYTES NOTICES INVALIDATIONS", or nothing.
dsm_stats() {
  cat "$@" | awk '/^ompcluster/ && (/stats: rank/ || /dsm: faults/) {
    s = $0; gsub(/[(),;:]/, " ", s); n = split(s, t, " "); seen = 1
    for (i = 1; i < n; i++) {
      if (t[i] == "regions" && t[i + 1] > v[1]) v[1] = t[i + 1]
      if (t[i] == "barriers" && t[i + 1] > v[2]) v[2] = t[i + 1]
      if (t[i] == "faults") { v[3] += t[i + 1]; v[4] += t[i + 3] }
      if (t[i] == "fetched") { v[5] += t[i + 1]; v[6] += t[i + 2] }
      if (t[i] == "diffs" && t[i + 1] == "sent") { v[7] += t[i + 2]; v[8] += t[i + 3] }
      if (t[i] == "notices") v[9] += t[i + 1]
      if (t[i] == "invalidations") v[10] += t[i - 1]
    }
  } END { if (seen) for (i = 1; i <= 10; i++) printf "%d%s", v[i], i < 10 ? " " : "\n" }'
}

# One application run: KEY COMMAND...; appends "KEY time check bytes msgs"
# or "KEY failed: REASON".
app_run() {
  k=$1
  shift
  run "$atmo" "$@"
  tm=$(awk '$1 == "time" { print $2 }' "$out/last.out")
  ck=$(awk '$1 == "check" { print $2 }' "$out/last.out")
  wu=$(awk '$1 == "warmup" { print $2 }' "$out/last.out")
  vf=$(sed -n 's/^verified //p' "$out/last.out")
  if [ -n "$why" ] && [ -z "$vf" ]; then
    put "$k failed: $why"
    return
  fi
  if [ "$vf" != yes ]; then
    put "$k failed: result not verified (${vf:-no verdict printed})"
    return
  fi
  case $k in
    *_mpi*) bm=$(awk '$1 == "mpi_bytes" { b = $2 } $1 == "mpi_msgs" { m = $2 } END { print b, m }' "$out/last.out") ;;
    *_ours*) bm=$(ompc_stats "$out/last.out" "$out/last.err")
	     d=$(dsm_stats "$out/last.out" "$out/last.err")
	     [ -n "$d" ] && put "dsm_${k#app_} $d" ;;
    *) bm="- -" ;;
  esac
  put "$k $tm $ck $bm"
  [ -n "$wu" ] && put "warm_${k#app_} $wu"
  return 0
}

if has apps; then
  r=0
  while [ $r -lt "$runs" ]; do
    for a in $apps; do
      for c in gomp mpi2 ours2 mpi4 ours4; do
	k="app_${a}_${c}_$r"
	case $c in
	  gomp) exe=$out/${a}_gomp ;;
	  mpi*) exe=$out/${a}_mpi ;;
	  ours*) exe=$out/${a}_ompc ;;
	esac
	# A configuration that failed once is not run again.
	if grep -q "^app_${a}_${c}_[0-9]* failed" "$tab"; then
	  continue
	fi
	if [ ! -x "$exe" ]; then
	  put "$k not run: $(basename "$exe") not built: $(get "build_$(basename "$exe")")"
	  continue
	fi
	say "$a $c run $((r + 1))/$runs"
	case $c in
	  gomp) app_run "$k" env OMP_NUM_THREADS=2 "$exe" ;;
	  mpi2) app_run "$k" "$MPIEXEC" -n 2 "$exe" ;;
	  mpi4) app_run "$k" "$MPIEXEC" -n 4 "$exe" ;;
	  ours2) app_run "$k" env OMPC_STATS=1 "$ompcrun" -n 2 -t 1 "$exe" ;;
	  ours4) app_run "$k" env OMPC_STATS=1 "$ompcrun" -n 4 -t 1 "$exe" ;;
	esac
      done
    done
    r=$((r + 1))
  done
fi
elapsed=$(( $(date +%s) - start ))

"$here/report.sh" "$tab" "$apps" "$micro_tests" "$runs" "$parts" > "$result.tmp" || exit 1
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Cluster costs: ompcluster against MPI, the kernel and libgomp"
  echo
  echo "Written by \`make bench-cluster\` on $(date -u '+%Y-%m-%d %H:%M UTC'), git commit $commit$(git -C "$here" diff --quiet HEAD -- ../../libgomp-cluster ../../gcc-plugin 2>/dev/null || echo ' (with uncommitted runtime or plugin changes in the tree)')."
  echo "All \"nodes\" are MPI ranks on this one machine (MPICH over shared memory),"
  echo "so a node's cores are shared with the others: 2 nodes x 1 thread fill the 2"
  echo "cores; 2 x 2 and 4 x 1 oversubscribe them (marked)."
  echo "Load average just before the run: $load_start."
  if awk -v l="${load_start%% *}" 'BEGIN { exit !(l > 1.0) }'; then
    echo
    echo "**The machine was busy with other work (1-minute load above 1 on 2 cores):**"
    echo "**every figure below, the floor included, carries that noise; the ratios and"
    echo "the bar verdicts compare noisy numbers and must be re-measured on a quiet machine.**"
  fi
  [ -n "${BENCH_NOTE:-}" ] && { echo; echo "Note: $BENCH_NOTE"; }
  [ -n "$wrap" ] && { echo; echo "The floor and the micro runs that do not oversubscribe the processors ran under \`$wrap\`; the oversubscribed ones and the applications did not."; }
  echo
  cat "$result.tmp"
  echo
  echo "## Machine"
  echo
  echo '```'
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|Hypervisor)'
  echo "nproc: $(nproc)"
  echo "kernel: $(uname -sr)"
  echo "gcc: $(gcc --version | head -1)"
  echo "mpich: $($MPIEXEC --version 2>/dev/null | grep -i 'version:' | head -1 | sed 's/^ *//')"
  echo '```'
  echo
  echo "## Command"
  echo
  echo '```'
  echo "cd BUILD && $(env | grep '^BENCH_' | grep -v '^BENCH_NOTE=' | sort | sed "s/=\(.*\)/='\1'/" | tr '\n' ' ')make bench-cluster   # $elapsed s"
  # No absolute path in the report: the trees and files by role.
  echo "# = bench/cluster/run.sh BUILD OUTDIR RESULT.md"
  echo "#   BENCH_APP_RUNS=$runs BENCH_PARTS=\"$parts\"; full log in OUTDIR/$(basename "$log")"
  echo '```'
} > "$result"
rm -f "$result.tmp"
say "wrote $result"
