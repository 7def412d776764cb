#!/bin/sh
# run.sh -- `make bench`: runs one ompbench binary on three runtimes and
# writes the single-node table.
#
#   run.sh BUILDDIR OUTDIR RESULT.md
#
# BUILDDIR  the build tree (its lib/libgomp.so.1 is "ours")
# OUTDIR    where ompbench was built and the raw samples go
# RESULT.md the Markdown report to write
#
# The same binary (built with plain gcc -fopenmp) runs on ours, on GCC's
# libgomp and on LLVM's libomp (through a directory holding a libgomp.so.1
# symlink to libomp.so.5), chosen by LD_LIBRARY_PATH, at 1 and 2 threads.
# Each construct runs in its own process so that a runtime failing one
# construct loses only that one.  Runtimes alternate within every round, and
# their order rotates from round to round, so that a noisy period of the
# machine hits all of them alike.  Environment:
#   BENCH_ROUNDS   rounds (default 10); each process gives BENCH_REPS samples
#   BENCH_REPS     samples per process (default 3)
#   BENCH_TARGET_US  minimum time of one timed test, in us (default 2000)
#   BENCH_SCHED_ITERS  iterations per thread of a schedule test's loop
#                  (default 256)
#   BENCH_SCHED_DELAY_US  the schedule tests' work per iteration (default 1)
#   BENCH_THREADS  thread counts (default "1 2")
#   BENCH_TESTS    constructs (default: all, from ompbench --list)
#   BENCH_TIMEOUT  seconds before one process is killed (default 30)
#   BENCH_NOTE     a sentence to put in the report (e.g. what else ran)
#   BENCH_WRAP     a command put before every timed process, e.g. "chrt -f 10"
#                  (real-time priority: other work on a shared machine then
#                  cannot take the processors from the benchmark; only with
#                  BENCH_THREADS no larger than the processors)
#   LIBGOMP, LIBOMP  the reference libraries

set -u
build=$(cd "$1" && pwd) || exit 2
out=$2
result=$3
rounds=${BENCH_ROUNDS:-10}
reps=${BENCH_REPS:-3}
target=${BENCH_TARGET_US:-2000}
sched_iters=${BENCH_SCHED_ITERS:-256}
sched_us=${BENCH_SCHED_DELAY_US:-1}
threads=${BENCH_THREADS:-"1 2"}
tmo=${BENCH_TIMEOUT:-30}
wrap=${BENCH_WRAP:-}
libgomp=${LIBGOMP:-/usr/lib/x86_64-linux-gnu/libgomp.so.1}
libomp=${LIBOMP:-/usr/lib/llvm-14/lib/libomp.so.5}
here=$(cd "$(dirname "$0")" && pwd)
bin=$out/ompbench
raw=$out/single-node.raw
fails=$out/single-node.fail
mkdir -p "$out/rt-libgomp" "$out/rt-libomp" || exit 2
ln -sf "$libgomp" "$out/rt-libgomp/libgomp.so.1"
ln -sf "$libomp" "$out/rt-libomp/libgomp.so.1"

[ -x "$bin" ] || { echo "run.sh: $bin is missing" >&2; exit 2; }
tests=${BENCH_TESTS:-$("$bin" --list)}

# Runtime NAME -> library directory; "ours" only if it was built.
rtdir() {
  case $1 in
    ours) echo "$build/lib" ;;
    libgomp) echo "$out/rt-libgomp" ;;
    libomp) echo "$out/rt-libomp" ;;
  esac
}
: > "$raw"
: > "$fails"
runtimes=
for rt in ours libgomp libomp; do
  d=$(rtdir $rt)
  if [ -e "$d/libgomp.so.1" ]; then
    runtimes="$runtimes $rt"
  else
    echo "run.sh: no $d/libgomp.so.1: runtime '$rt' not run" >&2
    echo "$rt * * not built (no $d/libgomp.so.1)" >> "$fails"
  fi
done

# The check that LD_LIBRARY_PATH picked the intended library, and for
# libomp, KMP_VERSION's banner.
for rt in $runtimes; do
  d=$(rtdir $rt)
  lib=$(OMP_NUM_THREADS=1 LD_LIBRARY_PATH=$d timeout "$tmo" "$bin" --reps 1 \
	  --target-us 10 parallel 2>/dev/null | sed -n 's/^lib //p')
  case $lib in
    "$d"/*) ;;
    *) echo "run.sh: runtime '$rt' resolved to '$lib', not $d" >&2; exit 1 ;;
  esac
done
if echo "$runtimes" | grep -q libomp; then
  KMP_VERSION=1 OMP_NUM_THREADS=1 LD_LIBRARY_PATH=$(rtdir libomp) \
    "$bin" --reps 1 --target-us 10 parallel 2>&1 >/dev/null \
    | grep -q 'LLVM OMP version' \
    || { echo "run.sh: KMP_VERSION=1 does not confirm LLVM's libomp" >&2; exit 1; }
fi

# One delay length for every run: calibrated once, here.
delay_len=$(LD_LIBRARY_PATH=$out/rt-libgomp "$bin" --calibrate 0.1)
sched_len=$(LD_LIBRARY_PATH=$out/rt-libgomp "$bin" --calibrate "$sched_us")
echo "run.sh: delay length $delay_len (0.1 us), schedules $sched_len ($sched_us us);" \
  "$rounds rounds x $reps samples; runtimes:$runtimes; threads: $threads" >&2

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
r=0
while [ $r -lt "$rounds" ]; do
  # Rotate the runtimes' order by the round number.
  order=$(echo $runtimes | awk -v r=$r '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r) % NF + 1) }')
  for t in $tests; do
    for n in $threads; do
      for rt in $order; do
	# A construct that failed once on a runtime is not run again.
	grep -q "^$rt $t $n " "$fails" && continue
	d=$(rtdir $rt)
	o=$(OMP_NUM_THREADS=$n LD_LIBRARY_PATH=$d timeout -k 2 "$tmo" $wrap "$bin" \
	      --delay-len "$delay_len" --sched-delay-len "$sched_len" \
	      --sched-iters "$sched_iters" --reps "$reps" --target-us "$target" \
	      "$t" 2>"$out/stderr")
	status=$?
	echo "$o" | awk -v rt=$rt '$1 == "sample" { print rt, $2, $3, $5 }' >> "$raw"
	reason=$(echo "$o" | sed -n 's/^fail [^ ]* //p' | head -1)
	if [ $status -ne 0 ] || [ -n "$reason" ]; then
	  if [ -z "$reason" ]; then
	    if [ $status -eq 124 ] || [ $status -eq 137 ]; then
	      reason="did not end within ${tmo} s (killed: hung or too slow)"
	    else
	      reason="exit status $status: $(grep -v '^$' "$out/stderr" | head -1 | cut -c1-120)"
	    fi
	  fi
	  echo "$rt $t $n $reason" >> "$fails"
	  echo "run.sh: $rt $t ($n threads) failed: $reason" >&2
	fi
      done
    done
  done
  r=$((r + 1))
  echo "run.sh: round $r of $rounds done ($(( $(date +%s) - start )) s)" >&2
done
elapsed=$(( $(date +%s) - start ))

"$here/report.sh" "$raw" "$fails" "$(echo $tests)" "$threads" > "$result.tmp" || exit 1
{
  echo "# Single-node overheads: ours vs GCC's libgomp vs LLVM's libomp"
  echo
  echo "Written by \`make bench\` on $(date -u '+%Y-%m-%d %H:%M UTC'), git commit" \
       "$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$here" diff --quiet HEAD -- ../../libgomp-cluster 2>/dev/null || echo ' (runtime sources modified)')."
  echo
  echo "## Method"
  echo
  echo "EPCC's method, in a benchmark of our own (\`bench/micro/ompbench.c\`):"
  echo "the overhead of one construct is (time of INNERREPS constructs wrapped"
  echo "around a delay − time of the same delays without the construct) / INNERREPS."
  echo "The delay is a calibrated loop of $delay_len iterations (≈0.1 µs);"
  echo "INNERREPS doubles until one timed test lasts ≥ $target µs; each process"
  echo "times the reference $reps times (median subtracted) and gives $reps samples."
  echo "One binary, built once with plain \`gcc -O2 -fopenmp\`, runs on each runtime"
  echo "through \`LD_LIBRARY_PATH\` (checked with \`dladdr\` on \`omp_get_num_threads\`;"
  echo "libomp also with \`KMP_VERSION=1\`); every construct runs in its own process;"
  echo "$rounds rounds, in each of which the runtimes alternate (order rotated per"
  echo "round) so that the machine's noise falls on all alike: $((rounds * reps)) samples"
  echo "per cell. Every test checks its own result (counts, sums, order)."
  echo "Default runtime settings (no \`OMP_WAIT_POLICY\`, no binding)."
  [ -n "$wrap" ] && echo "Every timed process ran under \`$wrap\`."
  echo
  echo "Load average just before the run: $load_start (this machine has $(nproc) cores;"
  echo "anything above ~0.3 means other work competed with the benchmark and the"
  echo "numbers are noisier)."
  if awk -v l="${load_start%% *}" 'BEGIN { exit !(l > 1.0) }'; then
    echo
    echo "**The machine was busy with other work (1-minute load above 1 on 2 cores): the"
    echo "ratios and the geometric means below compare noisy numbers.**"
  fi
  [ -n "${BENCH_NOTE:-}" ] && { echo; echo "Note: $BENCH_NOTE"; }
  echo
  echo "Cells: median overhead in µs, and the interquartile range in brackets; † marks"
  echo "a cell whose interquartile range is wider than its median (noise dominates)."
  echo "Schedules (\`static\`, \`dynamic_8\` = \`schedule(dynamic, 8)\` ...), as EPCC's"
  echo "schedbench: overhead of one loop of $sched_iters iterations per thread, each"
  echo "iteration a delay of $sched_len iterations (≈$sched_us µs), against the same"
  echo "$sched_iters delays run sequentially by every thread at once. What it holds: the"
  echo "schedule's chunk fetches (none for static: GCC expands it inline), the"
  echo "threads' imbalance at the loop's end and the loop's closing barrier. The master"
  echo "times every loop on its own (from leaving the barrier before it to leaving its"
  echo "closing barrier); right after each loop every thread times its own sequential"
  echo "share, and the loop's reference is the mean of those (the work spread"
  echo "perfectly evenly). A sample is the median over ≥ 16 loops of (loop − its"
  echo "reference): loops that other work interrupted, and the drift of a virtual"
  echo "processor's speed over milliseconds, do not decide it."
  echo "Tasks: per task — \`task\`: every thread"
  echo "creates tasks; \`task_master\`: one thread creates them all; \`taskwait\`: every"
  echo "thread creates one task and waits for it. Ratios are of medians, each floored at"
  echo "0.01 µs (the resolution of the method) so that near-zero overheads give no"
  echo "meaningless ratios."
  echo
  cat "$result.tmp"
  echo
  echo "## Machine"
  echo
  echo '```'
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|Socket|Hypervisor|L2|L3)'
  echo "nproc: $(nproc)"
  echo "kernel: $(uname -sr)"
  echo "gcc: $(gcc --version | head -1)"
  echo "libgomp: $(basename "$(readlink -f "$libgomp")") (GCC's, the system's)"
  echo "libomp: $(basename "$(readlink -f "$libomp")") (LLVM's, the system's)"
  echo '```'
  echo
  echo "## Command"
  echo
  echo '```'
  echo "cd BUILD && $(env | grep '^BENCH_' | grep -v '^BENCH_NOTE=' | sort | tr '\n' ' ')make bench   # $elapsed s"
  echo "# = bench/micro/run.sh BUILD OUTDIR RESULT.md"
  echo "#   BENCH_ROUNDS=$rounds BENCH_REPS=$reps BENCH_TARGET_US=$target BENCH_THREADS=\"$threads\""
  echo "#   BENCH_SCHED_ITERS=$sched_iters BENCH_SCHED_DELAY_US=$sched_us"
  echo '```'
} > "$result"
rm -f "$result.tmp"
echo "run.sh: wrote $result" >&2
