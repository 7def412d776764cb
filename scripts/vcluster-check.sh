#!/bin/sh
# vcluster-check.sh -- `make check-hosts`: tests across separate hosts of a
# virtual cluster (scripts/vcluster, docs/hosts.md).  Runs the suites named
# as arguments and prints one closing line "N passed, N failed, N skipped"
# summed over their DejaGnu .sum files; exit status 1 if anything failed.
#
# Suites (default: hosts gcc-libgomp-tcp):
#   hosts               testsuite/ompcluster.hosts/hosts.exp: the virtual
#                       cluster's own tests, then the cluster tests
#                       (ompcluster.cluster/, ompcluster.dsm/) at 2x1, 2x2
#                       and 3x1 over TCP, one host per node
#   gcc-libgomp-tcp     GCC's libgomp testsuite, C and Fortran, compiled
#                       once with the plugin and run at 2 hosts of 1 thread
#                       (run.sh's gcc-libgomp-cluster-c and -fortran with
#                       OMPC_GCC_CONFIGS=2x1-tcp; the same runs as make
#                       check's 2x1-tcp configuration, Fortran included)
#   gcc-libgomp-PxT[-c|-fortran]
#                       GCC's libgomp testsuite (testsuite/gcc-libgomp/run.sh)
#                       at P hosts (2 to 4) of T threads, every test run
#                       through bin/ompcrun with OMPC_MPIEXEC="vcluster run"
#
# Where a virtual cluster cannot run (not root, no namespaces), the hosts
# suite reports each of its tests UNSUPPORTED and a GCC suite one
# UNSUPPORTED line: skipped, never passed.  Results: $OMPC_BUILD/testsuite-hosts.

set -u
: "${OMPC_BUILD:?}" "${OMPC_SRCDIR:?}"
RUNTEST=${RUNTEST:-runtest}
vc="$OMPC_SRCDIR/scripts/vcluster"
out="$OMPC_BUILD/testsuite-hosts"
rm -rf "$out"
mkdir -p "$out"
suites="${*:-hosts gcc-libgomp-tcp}"
why=$("$vc" check 2>&1) && why=

for s in $suites; do
  case $s in
    hosts)
      mkdir -p "$out/hosts"
      (cd "$out/hosts" && OMPC_BUILD="$OMPC_BUILD" "$RUNTEST" --tool ompcluster \
	 --srcdir "$OMPC_SRCDIR/testsuite" hosts.exp >runtest.log 2>&1)
      grep -E '^(FAIL|UNRESOLVED|XPASS):' "$out/hosts/ompcluster.sum" || true
      ;;
    gcc-libgomp-tcp)
      for part in c fortran; do
	OMPC_GCC_CONFIGS=2x1-tcp "$OMPC_SRCDIR/testsuite/gcc-libgomp/run.sh" \
	  "$out/$s-$part" "gcc-libgomp-cluster-$part" || true
      done
      ;;
    gcc-libgomp-[2-4]x[0-9]*)
      if [ -n "$why" ]; then
	mkdir -p "$out/$s"
	echo "UNSUPPORTED: $s (${why#vcluster: })" >"$out/$s/libgomp.sum"
	echo "vcluster-check.sh: $s skipped: $why"
      else
	OMPC_MPIEXEC="$vc run" "$OMPC_SRCDIR/testsuite/gcc-libgomp/run.sh" \
	  "$out/$s" "$s" || true
      fi
      ;;
    *) echo "vcluster-check.sh: unknown suite '$s'" >&2; exit 2 ;;
  esac
done

# Sum PASS / FAIL / skipped (UNSUPPORTED, XFAIL, UNTESTED) over all .sum files.
find "$out" -name '*.sum' | xargs cat 2>/dev/null | awk '
  /^PASS:/ {p++} /^XPASS:/ {f++} /^FAIL:/ {f++} /^UNRESOLVED:/ {f++}
  /^XFAIL:/ {s++} /^UNSUPPORTED:/ {s++} /^UNTESTED:/ {s++}
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0) }'
