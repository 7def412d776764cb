#!/bin/sh
# testsuite/run-check.sh -- runs the test suites named as arguments ("all" by
# default) and prints one closing line "N passed, N failed, N skipped" summed
# over every DejaGnu .sum file written.  Exit status 1 if anything failed.
#
# Suites: ompcluster (our own tests, testsuite/ompcluster.*), gcc-libgomp
# (GCC's libgomp testsuite, see testsuite/gcc-libgomp/run.sh).

set -u
: "${OMPC_BUILD:?}" "${OMPC_SRCDIR:?}"
RUNTEST=${RUNTEST:-runtest}
out="$OMPC_BUILD/testsuite-out"
rm -rf "$out"
mkdir -p "$out"
suites="${*:-all}"
[ "$suites" = all ] && suites="ompcluster gcc-libgomp"

for s in $suites; do
  case $s in
    ompcluster)
      mkdir -p "$out/ompcluster"
      (cd "$out/ompcluster" && "$RUNTEST" --tool ompcluster \
         --srcdir "$OMPC_SRCDIR/testsuite" >runtest.log 2>&1)
      grep -E '^(FAIL|UNRESOLVED|XPASS):' "$out/ompcluster/ompcluster.sum" || true
      ;;
    gcc-libgomp*)
      "$OMPC_SRCDIR/testsuite/gcc-libgomp/run.sh" "$out/$s" "$s" || true
      ;;
    *) echo "run-check.sh: unknown suite '$s'" >&2; exit 2 ;;
  esac
done

# Sum PASS / FAIL / skipped (UNSUPPORTED, XFAIL, UNTESTED) over all .sum files.
find "$out" -name '*.sum' | xargs cat 2>/dev/null | awk '
  /^PASS:/ {p++} /^XPASS:/ {f++} /^FAIL:/ {f++} /^UNRESOLVED:/ {f++}
  /^XFAIL:/ {s++} /^UNSUPPORTED:/ {s++} /^UNTESTED:/ {s++}
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0) }'
