#!/bin/sh
# testsuite/fuzz/run-fuzz.sh -- differential fuzzing against GCC's libgomp:
# for every seed, writes the program of testsuite/fuzz/ompfuzz.c, builds it
# with plain `gcc -fopenmp` (the reference, GCC's libgomp) and with
# bin/ompcc, runs the reference with 2 threads and ours in every
# configuration, and compares exit status and standard output.  A failing
# seed keeps its program, the reference's output and each configuration's
# output and error in $FUZZ_OUT/seed-N/.  The last line printed is
# "N passed, N failed" (one run of one seed in one configuration each).
#
# Usage: run-fuzz.sh SEEDS   (e.g. 1-1000, 7, 1-10,40,100-120)
# Environment: OMPC_BUILD, OMPC_SRCDIR (set by `make fuzz`);
#   FUZZ_CONFIGS  configurations, NODESxTHREADS, 1xT a plain run with
#                 OMP_NUM_THREADS=T (default "1x2 1x3 2x1 2x2 3x1");
#   FUZZ_OPTS     generator options (-n -f -s -A, see ompfuzz.c; default none);
#   FUZZ_TIMEOUT  seconds per run (default 60);
#   FUZZ_OUT      where failures are kept (default $OMPC_BUILD/fuzz-out);
#   FUZZ_CFLAGS   flags of both compilers (default -O2).
# Exit status 1 if anything failed.

set -u
: "${OMPC_BUILD:?}" "${OMPC_SRCDIR:?}"
[ $# -eq 1 ] || { echo "usage: run-fuzz.sh SEEDS (e.g. 1-1000)" >&2; exit 2; }
configs=${FUZZ_CONFIGS:-1x2 1x3 2x1 2x2 3x1}
opts=${FUZZ_OPTS:-}
tmo=${FUZZ_TIMEOUT:-60}
out=${FUZZ_OUT:-$OMPC_BUILD/fuzz-out}
cflags=${FUZZ_CFLAGS:--O2}
work=$(mktemp -d "${TMPDIR:-/tmp}/ompfuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

gen=$work/ompfuzz
${CC:-gcc} -O2 -o "$gen" "$OMPC_SRCDIR/testsuite/fuzz/ompfuzz.c" || exit 1

# The seeds of a list like 1-10,40,100-120, one a line.
seeds() {
  echo "$1" | tr ',' '\n' | while IFS=- read -r lo hi; do
    [ -n "$hi" ] || hi=$lo
    seq "$lo" "$hi"
  done
}

# run CFG EXE OUTFILE: runs EXE in configuration CFG; prints the status.
run() {
  nodes=${1%x*} threads=${1#*x}
  if [ "$nodes" = 1 ]; then
    OMP_NUM_THREADS=$threads timeout -k 5 "$tmo" "$2" >"$3" 2>"$3.err"
  else
    timeout -k 5 "$tmo" "$OMPC_BUILD/bin/ompcrun" -n "$nodes" -t "$threads" "$2" >"$3" 2>"$3.err"
  fi
  echo $?
}

# keep SEED: copies what a failing seed left into $out/seed-N/.
keep() {
  d=$out/seed-$1
  mkdir -p "$d"
  cp "$work/prog.c" "$d/"
  for f in "$work"/*.out "$work"/*.err "$work"/*.status; do
    [ -e "$f" ] && cp "$f" "$d/"
  done
  true
}

pass=0 fail=0 n=0
for s in $(seeds "$1"); do
  rm -f "$work"/*.out "$work"/*.err "$work"/*.status "$work"/ref "$work"/ours
  # shellcheck disable=SC2086
  "$gen" $opts "$s" >"$work/prog.c" || { echo "FAIL: seed $s: generator"; fail=$((fail + 1)); continue; }
  if ! gcc -fopenmp $cflags -w "$work/prog.c" -o "$work/ref" 2>"$work/ref-compile.err"; then
    echo "FAIL: seed $s: gcc does not compile it"; keep "$s"; fail=$((fail + 1)); continue
  fi
  if ! "$OMPC_BUILD/bin/ompcc" $cflags -w "$work/prog.c" -o "$work/ours" 2>"$work/ompcc-compile.err"; then
    echo "FAIL: seed $s: bin/ompcc does not compile it"; keep "$s"; fail=$((fail + 1)); continue
  fi
  st=$(run 1x2 "$work/ref" "$work/ref.out")
  echo "$st" >"$work/ref.status"
  if [ "$st" != 0 ]; then
    echo "FAIL: seed $s: the reference (GCC's libgomp) exits with $st"; keep "$s"; fail=$((fail + 1)); continue
  fi
  bad=
  for c in $configs; do
    st=$(run "$c" "$work/ours" "$work/$c.out")
    echo "$st" >"$work/$c.status"
    if [ "$st" = 124 ] || [ "$st" = 137 ]; then why="timeout ${tmo}s"
    elif [ "$st" != 0 ]; then why="exit status $st"
    elif ! cmp -s "$work/ref.out" "$work/$c.out"; then
      why="output differs: $(diff "$work/ref.out" "$work/$c.out" | grep '^[<>]' | head -2 | tr '\n' ' ')"
    else
      pass=$((pass + 1)); continue
    fi
    echo "FAIL: seed $s [$c]: $why"
    fail=$((fail + 1)); bad=1
  done
  [ -n "$bad" ] && keep "$s"
  n=$((n + 1))
  [ $((n % 20)) = 0 ] && echo "run-fuzz.sh: $n seeds (last $s), $pass passed, $fail failed so far"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
