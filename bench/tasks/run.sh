#!/bin/sh
# run.sh -- `make bench-tasks`: the task programs of bench/apps/task_*.c
# (in the manner of BOTS: fib, nqueens, sparselu, strassen, health, sort,
# uts), each built
# with bin/ompcc and launched several times at every configuration; the
# report gives the median of the programs' own "time" lines, their spread
# (min and max) and the speed-up of each configuration over 1x1.
#
#   run.sh BUILDDIR OUTDIR RESULT.md
#
# Environment:
#   TASK_RUNS     launches per program and configuration (default 5)
#   TASK_APPS     which programs (default "fib nqueens sparselu strassen
#                 health sort uts barriers")
#   TASK_CONFIGS  configurations, NODESxTHREADS, each optionally followed
#                 by ":VAR=VALUE" settings for its runs (several joined by
#                 ","), e.g. "1x1 2x1:OMPC_TASK_STEAL=0 2x1" (default
#                 "1x1 2x1")
#   TASK_TIMEOUT  seconds before one launch is killed (default 120)
#   TASK_NOTE     a sentence to put in the report
# A launch that fails, times out or does not print "verified yes" makes
# its configuration "failed" in the report; no figure is made up.  Runs
# of the configurations are interleaved (round after round), so that a
# change of the machine's load hits them alike.

set -u
build=$(cd "$1" && pwd) || exit 2
out=$2
result=$3
runs=${TASK_RUNS:-5}
apps=${TASK_APPS:-"fib nqueens sparselu strassen health sort uts barriers"}
configs=${TASK_CONFIGS:-"1x1 2x1"}
tmo=${TASK_TIMEOUT:-120}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../apps
mkdir -p "$out" || exit 2
log=$out/tasks.log
tab=$out/tasks.tab
: > "$log"
: > "$tab"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

for a in $apps; do
  if ! "$build/bin/ompcc" -O2 -o "$out/task_$a" "$src/task_$a.c" -lm >>"$log" 2>&1; then
    echo "$a build failed" >> "$tab"
  fi
done

# One launch of program A at configuration C; appends "A C time" or
# "A C failed" to the table.
launch() {
  a=$1 c=$2
  nt=${c%%:*}
  envs=
  case $c in *:*) envs=$(echo "${c#*:}" | tr ',' ' ') ;; esac
  n=${nt%%x*} t=${nt#*x}
  o=$out/last.out
  if timeout "$tmo" env $envs "$build/bin/ompcrun" -n "$n" -t "$t" \
       "$out/task_$a" > "$o" 2>>"$log" && grep -q '^verified yes' "$o"; then
    echo "$a $c $(awk '$1 == "time" { print $2 }' "$o")" >> "$tab"
  else
    echo "$a $c failed" >> "$tab"
    { echo "== $a $c:"; cat "$o"; } >> "$log"
  fi
}

r=0
while [ "$r" -lt "$runs" ]; do
  for a in $apps; do
    grep -q "^$a build failed" "$tab" && continue
    for c in $configs; do
      launch "$a" "$c"
    done
  done
  r=$((r + 1))
done

commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# Task programs across nodes"
  echo
  echo "Written by \`make bench-tasks\` on $(date -u '+%Y-%m-%d %H:%M UTC'), git commit $commit$(git -C "$here" diff --quiet HEAD -- ../../libgomp-cluster 2>/dev/null || echo ' (with uncommitted runtime changes in the tree)'), $(nproc) processors."
  echo "Load average just before the run: $load_start; $runs launches per program and configuration, interleaved."
  [ -n "${TASK_NOTE:-}" ] && { echo; echo "$TASK_NOTE"; }
  echo
  echo "Each figure is the median of the program's own \`time\` (the tasking"
  echo "part, not start-up or the check), with the fastest and slowest launch"
  echo "in brackets, in seconds; \`x\` is the speed-up over 1x1 (medians)."
  echo "NODESxTHREADS: MPI ranks (nodes) x OpenMP threads per rank."
  echo
  printf '| program |'
  for c in $configs; do printf ' %s |' "$c"; done
  echo
  printf '| --- |'
  for c in $configs; do printf ' --- |'; done
  echo
  for a in $apps; do
    printf '| %s |' "$a"
    if grep -q "^$a build failed" "$tab"; then
      for c in $configs; do printf ' build failed |'; done
      echo
      continue
    fi
    base=
    for c in $configs; do
      cell=$(awk -v a="$a" -v c="$c" -v base="${base:-}" '
	$1 == a && $2 == c { if ($3 == "failed") bad = 1; else v[n++] = $3 }
	END {
	  if (bad || n == 0) { print "failed"; exit }
	  for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
	    if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	  med = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
	  s = sprintf ("%.3f [%.3f-%.3f]", med, v[0], v[n - 1])
	  if (base != "") s = s sprintf (" x%.2f", base / med)
	  print s " " med
	}' "$tab")
      case $cell in
	failed) printf ' failed |' ;;
	*) [ -z "$base" ] && base=${cell##* }
	   printf ' %s |' "${cell% *}" ;;
      esac
    done
    echo
  done
  echo
  echo "Programs (bench/apps/, default sizes, about 10 s each at 1x1 on the"
  echo "project's machines): fib 48 with tasks down to depth 10; nqueens 15 with"
  echo "tasks in the first 3 rows; sparselu 70x70 blocks of 70x70 (BOTS's"
  echo "sparsity pattern); strassen 4096x4096 doubles, tasks for the 7 products"
  echo "down to 3 levels, plain multiply below 64; health 341 villages (5 levels"
  echo "of 4) for 1000 steps; sort of 64 Mi keys down to 64 Ki keys per task;"
  echo "uts to depth 13 with 2000 hash rounds per node. barriers is not a task"
  echo "program: one task, then 300,000 worksharing loops over 4096 doubles,"
  echo "each ending in a barrier; it shows what stealing costs such a program"
  echo "(compare the columns with and without it at the same configuration),"
  echo "and gains nothing from a second node."
} > "$result"
echo "wrote $result"
