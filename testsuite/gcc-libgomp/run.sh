#!/bin/sh
# run.sh OUTDIR SUITE -- runs GCC 12's own libgomp testsuite against this
# project's runtime, with DejaGnu.
#
# SUITE is gcc-libgomp[-PxT][-c|-fortran]:
#   gcc-libgomp            1 node: plain gcc/gfortran -fopenmp, run directly
#   gcc-libgomp-2x1 ...    P nodes of T threads: compiled with bin/ompcc (the
#                          plugin), each run through bin/ompcrun -n P -t T
#   ...-c / ...-fortran    only the C tests (libgomp.c, libgomp.c-c++-common)
#                          or only the Fortran ones (libgomp.fortran); both
#                          by default
#
# Tests come from Debian's gcc-12-source at test time and are never
# committed: the parts NOTES-GCC12.md lists are extracted once into
# $OMPC_BUILD/gcc-12-testsuite (delete it to extract again).  Every test is
# compiled with -foffload=disable (the offload compilers Debian's gcc-12
# knows are not installed) and -I$OMPC_BUILD/include: the tests' <omp.h> is
# the one this runtime ships.  They are linked with -L against the runtime
# directory and with an RPATH to it (which wins over the LD_LIBRARY_PATH
# DejaGnu prepends to), so the libgomp.so.1 they load is ours; a probe
# checks that before anything runs.
#
# Environment:
#   OMPC_BUILD              the build tree (required)
#   OMPC_GCC_TESTS_LIBDIR   run against the libgomp.so.1 in this directory
#                           instead of $OMPC_BUILD/lib (to validate the
#                           harness on GCC's own library: a directory with
#                           libgomp.so.1 and libgomp.so symlinked to it)
#   OMPC_GCC_TESTS_TIMEOUT  seconds a test program may run (default 300,
#                           DejaGnu's, with 1 node; 120 with several)
#   OMPC_GCC_TESTS          extra runtest arguments, e.g. a test subset:
#                           "c.exp=loop-*.c" or "fortran.exp=lib1.f90"
#
# Writes OUTDIR/libgomp.sum (what make check counts: a FAIL of a test listed
# in expected-failures.txt becomes XFAIL, see apply-xfail.awk), the raw
# DejaGnu summary OUTDIR/libgomp.raw-sum and log OUTDIR/libgomp.log.

set -u
out=${1:?usage: run.sh OUTDIR SUITE}
suite=${2:-gcc-libgomp}
: "${OMPC_BUILD:?run.sh needs OMPC_BUILD (the build tree)}"
here=$(cd "$(dirname "$0")" && pwd)
tarball=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
cache="$OMPC_BUILD/gcc-12-testsuite"
libdir=${OMPC_GCC_TESTS_LIBDIR:-$OMPC_BUILD/lib}
RUNTEST=${RUNTEST:-runtest}

# The suite name: nodes/threads and language parts.
nodes=1 threads= parts="c fortran"
rest=${suite#gcc-libgomp}
case $rest in
  *-c) parts=c; rest=${rest%-c} ;;
  *-fortran) parts=fortran; rest=${rest%-fortran} ;;
esac
case $rest in
  '') ;;
  -[0-9]*x[0-9]*)
    nodes=${rest#-}; threads=${nodes#*x}; nodes=${nodes%x*} ;;
  *) echo "run.sh: unknown suite '$suite'" >&2; exit 2 ;;
esac
case $nodes$threads in *[!0-9]*) echo "run.sh: bad suite '$suite'" >&2; exit 2 ;; esac

if [ ! -r "$tarball" ]; then
  echo "run.sh: $tarball missing (apt-get install gcc-12-source)" >&2
  exit 2
fi
if [ ! -e "$libdir/libgomp.so.1" ]; then
  echo "run.sh: no libgomp.so.1 in $libdir (build first)" >&2
  exit 2
fi

# Extract once (atomically: a half-extracted cache is never used; bump
# cache_version when the list of extracted parts changes).
src="$cache/gcc-12.2.0"
cache_version=2
if [ "$(cat "$cache/.complete" 2>/dev/null)" != $cache_version ]; then
  rm -rf "$cache" "$cache.tmp"
  mkdir -p "$cache.tmp"
  tar -C "$cache.tmp" -xJf "$tarball" --wildcards \
    'gcc-12.2.0/libgomp/testsuite/lib/*' \
    'gcc-12.2.0/libgomp/testsuite/config/*' \
    'gcc-12.2.0/libgomp/testsuite/libgomp.c/*' \
    'gcc-12.2.0/libgomp/testsuite/libgomp.c-c++-common/*' \
    'gcc-12.2.0/libgomp/testsuite/libgomp.fortran/*' \
    gcc-12.2.0/libgomp/testsuite/libgomp.oacc-fortran/pr90030.f90 \
    gcc-12.2.0/libgomp/libgomp_g.h gcc-12.2.0/libgomp/omp.h.in \
    'gcc-12.2.0/include/*' 'gcc-12.2.0/gcc/testsuite/lib/*' || exit 2
  # affinity-1.c includes libgomp's config.h for this one macro.
  echo '#define HAVE_PTHREAD_AFFINITY_NP 1' \
    >"$cache.tmp/gcc-12.2.0/libgomp/config.h"
  mv "$cache.tmp" "$cache" && echo $cache_version >"$cache/.complete"
fi

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# How tests are compiled and run.
cc=gcc fc=gfortran
exec_timeout=${OMPC_GCC_TESTS_TIMEOUT:-300}
[ "$nodes" -gt 1 ] && exec_timeout=${OMPC_GCC_TESTS_TIMEOUT:-120}
opts="-foffload=disable -I$OMPC_BUILD/include -L$libdir -Wl,-rpath,$libdir -Wl,--disable-new-dtags"
probe_opts=$opts
if [ "$nodes" -gt 1 ]; then
  cc="$OMPC_BUILD/bin/ompcc"
  fc="$OMPC_BUILD/bin/ompcc"
  # The plugin's warnings (e.g. "'target' constructs are not distributed")
  # would count as excess errors in GCC's tests, which check diagnostics.
  opts="$opts -fplugin-arg-ompcluster-no-warnings"
  for f in "$cc" "$OMPC_BUILD/bin/ompcrun"; do
    [ -x "$f" ] || { echo "run.sh: $f missing (build first)" >&2; exit 2; }
  done
fi

# The runtime check: a program linked as the tests are must load
# $libdir/libgomp.so.1.
probe="$out/probe"
printf '#include <omp.h>\nint main (void) { return omp_get_max_threads () < 1; }\n' \
  >"$probe.c"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
if ! gcc -fopenmp $probe_opts "$probe.c" -o "$probe" >"$probe.log" 2>&1; then
  echo "run.sh: cannot link a probe against $libdir:" >&2
  cat "$probe.log" >&2
  exit 2
fi
loaded=$(ldd "$probe" | awk '$1 == "libgomp.so.1" {print $3}')
if [ "$(readlink -f "$loaded")" != "$(readlink -f "$libdir/libgomp.so.1")" ]; then
  echo "run.sh: tests would load '$loaded', not $libdir/libgomp.so.1" >&2
  exit 2
fi

# DejaGnu set-up: site.exp, the test-support file libgomp.exp loads, and for
# several nodes a board whose exec_shell runs each test through ompcrun.
cat >"$out/site.exp" <<EOF
set srcdir "$src/libgomp/testsuite"
set objdir "$out"
set tool libgomp
set host_triplet x86_64-pc-linux-gnu
set build_triplet x86_64-pc-linux-gnu
set target_triplet x86_64-pc-linux-gnu
set target_alias x86_64-linux-gnu
set GCC_UNDER_TEST "$cc"
set GFORTRAN_UNDER_TEST "$fc"
set TOOL_OPTIONS "$opts"
set offload_additional_options ""
set offload_additional_lib_paths ""
set tmpdir "$out"
set test_timeout $exec_timeout
lappend boards_dir "$out/boards"
EOF
cat >"$out/libgomp-test-support.exp" <<'EOF'
set cuda_driver_include ""
set cuda_driver_lib ""
set hsa_runtime_lib ""
set offload_plugins ""
set offload_targets ""
EOF
board=
if [ "$nodes" -gt 1 ]; then
  board="--target_board=ompcluster-${nodes}x${threads}"
  mkdir -p "$out/boards"
  cat >"$out/boards/ompcluster-${nodes}x${threads}.exp" <<EOF
# Runs every test program through ompcrun on $nodes nodes of $threads threads.
load_base_board_description "unix"
# Local, although not named after this host (runtest presets 1).
unset_board_info isremote
set_board_info isremote 0
set_board_info exec_shell "$OMPC_BUILD/bin/ompcrun -n $nodes -t $threads"
EOF
fi

files=
for p in $parts; do
  case $p in
    c) files="$files c.exp" ;;
    fortran) files="$files fortran.exp" ;;
  esac
done

echo "run.sh: $suite: $files against $libdir (nodes $nodes${threads:+, threads $threads})"
start=$(date +%s)
# shellcheck disable=SC2086
(cd "$out" && "$RUNTEST" --tool libgomp $board ${OMPC_GCC_TESTS:-$files} \
   >"$out/runtest.out" 2>&1)
status=$?
echo "run.sh: runtest exited $status after $(( $(date +%s) - start )) s"

if [ ! -f "$out/libgomp.sum" ]; then
  echo "run.sh: runtest wrote no libgomp.sum; see $out/runtest.out" >&2
  tail -20 "$out/runtest.out" >&2
  exit 1
fi

# Expected failures: the list for this configuration (1 node, or PxT).
mv "$out/libgomp.sum" "$out/libgomp.raw-sum"
xfail="$here/expected-failures.txt"
[ "$nodes" -gt 1 ] && xfail="$here/expected-failures-${nodes}x${threads}.txt"
[ -f "$xfail" ] || xfail=/dev/null
if ! awk -f "$here/apply-xfail.awk" "$xfail" "$out/libgomp.raw-sum" \
     >"$out/libgomp.sum"; then
  echo "run.sh: bad expected-failures list $xfail" >&2
  exit 1
fi

# Tests (files) that ran, and how many of them the list excused: the list
# must stay below 5% of them.
ran=$(awk '/^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED):/ {print $2}' \
  "$out/libgomp.raw-sum" | sort -u | wc -l)
excused=$(awk '/^XFAIL:.*\[expected: / {print $2}' "$out/libgomp.sum" | \
  sort -u | wc -l)
echo "run.sh: $ran tests ran; $excused of them are listed expected failures"

grep -E '^# of ' "$out/libgomp.sum"
grep -E '^(FAIL|UNRESOLVED|XPASS):' "$out/libgomp.sum" | head -50
grep -E '^NOTE: ' "$out/libgomp.sum"
! grep -qE '^(FAIL|UNRESOLVED|XPASS):' "$out/libgomp.sum"
