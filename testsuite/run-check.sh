#!/bin/sh
# testsuite/run-check.sh -- runs the test suites named as arguments ("all" by
# default) and prints one closing line "N passed, N failed, N skipped" summed
# over every DejaGnu .sum file written.  Exit status 1 if anything failed.
#
# Suites: ompcluster (our own tests, testsuite/ompcluster.*), and GCC's
# libgomp testsuite (testsuite/gcc-libgomp/run.sh): gcc-libgomp (1 node,
# C and Fortran), gcc-libgomp-cluster-c (compiled with the plugin, run at
# 2x1, 2x2 and on 2 hosts of a virtual cluster over TCP, 2x1-tcp, which is
# reported UNSUPPORTED where vcluster cannot run), gcc-libgomp-cluster-fortran
# (the same at 2x1 and 2x2; make check-hosts runs it over TCP),
# gcc-libgomp-tasks (the tests of tasks at 2x1, 2x2 and 3x1 with task
# stealing between nodes on), or any other run.sh suite name
# (gcc-libgomp-2x2-c ...).  OMPC_GCC_CONFIGS overrides the configurations
# of the cluster suites.  "all" is all of the first five.

set -u
: "${OMPC_BUILD:?}" "${OMPC_SRCDIR:?}"
RUNTEST=${RUNTEST:-runtest}
out="$OMPC_BUILD/testsuite-out"
rm -rf "$out"
mkdir -p "$out"
suites="${*:-all}"
[ "$suites" = all ] && suites="ompcluster gcc-libgomp gcc-libgomp-cluster-c gcc-libgomp-cluster-fortran gcc-libgomp-tasks"

for s in $suites; do
  start=$(date +%s)
  case $s in
    ompcluster)
      mkdir -p "$out/ompcluster"
      (cd "$out/ompcluster" && "$RUNTEST" --tool ompcluster \
         --srcdir "$OMPC_SRCDIR/testsuite" >runtest.log 2>&1)
      grep -E '^(FAIL|UNRESOLVED|XPASS):' "$out/ompcluster/ompcluster.sum" || true
      # What the log says about each failure (its last 30 lines before the
      # verdict, for 5 failures at most): a CI log keeps no files.
      awk '/^(PASS|XFAIL|UNSUPPORTED):/ { n = 0; next }
	   /^(FAIL|UNRESOLVED|XPASS):/ {
	     if (++shown <= 5) {
	       print "run-check.sh: the log before " $0
	       for (i = (n > 30 ? n - 30 : 0); i < n; i++) print "  " buf[i % 30]
	     }
	     n = 0; next }
	   { buf[n++ % 30] = $0 }' "$out/ompcluster/ompcluster.log" || true
      ;;
    gcc-libgomp-cluster-fortran)
      OMPC_GCC_CONFIGS=${OMPC_GCC_CONFIGS:-2x1 2x2} \
	"$OMPC_SRCDIR/testsuite/gcc-libgomp/run.sh" "$out/$s" "$s" || true
      ;;
    gcc-libgomp*)
      "$OMPC_SRCDIR/testsuite/gcc-libgomp/run.sh" "$out/$s" "$s" || true
      ;;
    *) echo "run-check.sh: unknown suite '$s'" >&2; exit 2 ;;
  esac
  echo "run-check.sh: $s took $(( $(date +%s) - start )) s"
done

# Every unexpected result again, last, so that a log's tail names them.
find "$out" -name '*.sum' | xargs grep -hE '^(FAIL|UNRESOLVED|XPASS):' 2>/dev/null | \
  sed 's/^/run-check.sh: /' | head -40

# Sum PASS / FAIL / skipped (UNSUPPORTED, XFAIL, UNTESTED) over all .sum files.
find "$out" -name '*.sum' | xargs cat 2>/dev/null | awk '
  /^PASS:/ {p++} /^XPASS:/ {f++} /^FAIL:/ {f++} /^UNRESOLVED:/ {f++}
  /^XFAIL:/ {s++} /^UNSUPPORTED:/ {s++} /^UNTESTED:/ {s++}
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0) }'
