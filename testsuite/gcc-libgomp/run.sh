#!/bin/sh
# run.sh OUTDIR SUITE -- runs GCC 12's own libgomp testsuite against this
# project's runtime, with DejaGnu.
#
# SUITE is gcc-libgomp[-CONFIG][-c|-fortran]:
#   gcc-libgomp            1 node: plain gcc/gfortran -fopenmp, run directly
#   gcc-libgomp-2x1 ...    P nodes of T threads: compiled with bin/ompcc (the
#                          plugin), each run through bin/ompcrun -n P -t T
#   gcc-libgomp-cluster    every configuration of OMPC_GCC_CONFIGS (default
#                          "2x1 2x2 2x1-tcp"), each test compiled once
#   gcc-libgomp-tasks      the tests of tasks (task*, taskloop*, taskgroup*,
#                          taskwait*, depend* in C and Fortran, unless
#                          OMPC_GCC_TESTS says otherwise) with task stealing
#                          between nodes on, in every configuration of
#                          OMPC_GCC_CONFIGS (default "2x1-steal 2x2-steal
#                          3x1-steal")
#   ...-c / ...-fortran    only the C tests (libgomp.c, libgomp.c-c++-common)
#                          or only the Fortran ones (libgomp.fortran); both
#                          by default
#
# A configuration is PxT (P nodes of T threads, ranks on this machine),
# PxT-tcp (P separate hosts of a virtual cluster talking TCP,
# scripts/vcluster, docs/hosts.md; reported UNSUPPORTED where it cannot
# run: not root, no namespaces), or PxT-steal (PxT with OMPC_TASK_STEAL=1).  Several configurations run one after
# the other, one DejaGnu pass each in OUTDIR/CONFIG, but each test is
# compiled only once: the compiler goes through cc-cache.sh, which replays
# the first pass's compile in the later ones, and a later pass reports only
# its execution results.  Results name their configuration:
# "PASS: libgomp.c/foo.c execution test [2x2]".  With several nodes the
# Fortran tests run at -O2 only (GCC's torture of 6 optimisation levels
# would take most of an hour per configuration), and each run of a test
# program may last OMPC_GCC_TESTS_TIMEOUT seconds (60 by default, enforced
# by timeout(1), which ends every process of the job), so that a hang
# cannot eat the budget of make check.
#
# Tests come from Debian's gcc-12-source at test time and are never
# committed: the parts listed below (tar --wildcards) are extracted once into
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
#   OMPC_GCC_CONFIGS        the configurations of gcc-libgomp-cluster
#   OMPC_GCC_TESTS_LIBDIR   run against the libgomp.so.1 in this directory
#                           instead of $OMPC_BUILD/lib (to validate the
#                           harness on GCC's own library: a directory with
#                           libgomp.so.1 and libgomp.so symlinked to it)
#   OMPC_GCC_TESTS_TIMEOUT  seconds a test program may run (default 300,
#                           DejaGnu's, with 1 node; 60 with several)
#   OMPC_GCC_TESTS          extra runtest arguments, e.g. a test subset:
#                           "c.exp=loop-*.c" or "fortran.exp=lib1.f90";
#                           split like shell words, so quotes group several
#                           patterns: 'c.exp="scan-*.c for-*.c"' 
#
# Writes libgomp.sum (what make check counts: a FAIL of a test listed in
# the configuration's expected-failures list becomes XFAIL, see
# apply-xfail.awk), the raw DejaGnu summary libgomp.raw-sum and log
# libgomp.log, in OUTDIR (1 node or one PxT) or in OUTDIR/CONFIG.
# Lists: expected-failures.txt (1 node), expected-failures-CONFIG.txt
# (a PxT-tcp or PxT-steal configuration without a list of its own uses
# PxT's).  A list
# that excuses 10% or more of the tests of a whole run is a failure of
# its own.

set -u
out=${1:?usage: run.sh OUTDIR SUITE}
suite=${2:-gcc-libgomp}
: "${OMPC_BUILD:?run.sh needs OMPC_BUILD (the build tree)}"
here=$(cd "$(dirname "$0")" && pwd)
tarball=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
cache="$OMPC_BUILD/gcc-12-testsuite"
libdir=${OMPC_GCC_TESTS_LIBDIR:-$OMPC_BUILD/lib}
RUNTEST=${RUNTEST:-runtest}
vcluster="$here/../../scripts/vcluster"

# The suite name: configurations and language parts.
configs=1 parts="c fortran"
rest=${suite#gcc-libgomp}
case $rest in
  *-c) parts=c; rest=${rest%-c} ;;
  *-fortran) parts=fortran; rest=${rest%-fortran} ;;
esac
case $rest in
  '') ;;
  -cluster) configs=${OMPC_GCC_CONFIGS:-2x1 2x2 2x1-tcp} ;;
  -tasks)
    configs=${OMPC_GCC_CONFIGS:-2x1-steal 2x2-steal 3x1-steal}
    tests='c.exp="task*.c taskloop*.c taskgroup*.c taskwait*.c depend*.c"'
    tests="$tests"' fortran.exp="task*.f90 taskloop*.f90 taskgroup*.f90 depend*.f90"'
    OMPC_GCC_TESTS=${OMPC_GCC_TESTS:-$tests} ;;
  -[0-9]*x[0-9]*) configs=${rest#-} ;;
  *) echo "run.sh: unknown suite '$suite'" >&2; exit 2 ;;
esac
for c in $configs; do
  case $c in
    1|[1-9]x[1-9]|[1-9]x[1-9]-tcp|[1-9]x[1-9]-steal) ;;
    *) echo "run.sh: bad configuration '$c' in suite '$suite'" >&2; exit 2 ;;
  esac
done

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
opts="-foffload=disable -I$OMPC_BUILD/include -L$libdir -Wl,-rpath,$libdir -Wl,--disable-new-dtags"
probe_opts=$opts
if [ "$configs" != 1 ]; then
  exec_timeout=${OMPC_GCC_TESTS_TIMEOUT:-60}
  # Every pass compiles through the cache (cc-cache.sh); DejaGnu wants
  # the compiler to be one file.
  cc="$out/ompcc-cached"
  fc=$cc
  printf '#!/bin/sh\nexec sh "%s" "%s" "$@"\n' "$here/cc-cache.sh" \
    "$OMPC_BUILD/bin/ompcc" >"$cc"
  chmod +x "$cc"
  # The plugin's warnings (e.g. "'target' constructs are not distributed")
  # would count as excess errors in GCC's tests, which check diagnostics.
  opts="$opts -fplugin-arg-ompcluster-no-warnings"
  for f in "$OMPC_BUILD/bin/ompcc" "$OMPC_BUILD/bin/ompcrun"; do
    [ -x "$f" ] || { echo "run.sh: $f missing (build first)" >&2; exit 2; }
  done
  OMPC_GCC_CACHE="$out/cc-cache"
  export OMPC_GCC_CACHE
  mkdir -p "$OMPC_GCC_CACHE"
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

files=
for p in $parts; do
  case $p in
    c) files="$files c.exp" ;;
    fortran) files="$files fortran.exp" ;;
  esac
done

# One DejaGnu pass in DIR for configuration CFG: site.exp, the
# test-support file libgomp.exp loads, and for several nodes a board whose
# exec_shell runs each test program through DIR/launch.sh (ompcrun under
# timeout(1)).
run_pass () {
  cfg=$1 dir=$2
  mkdir -p "$dir"
  cat >"$dir/site.exp" <<EOF
set srcdir "$src/libgomp/testsuite"
set objdir "$dir"
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
set tmpdir "$dir"
lappend boards_dir "$dir/boards"
EOF
  cat >"$dir/libgomp-test-support.exp" <<'EOF'
set cuda_driver_include ""
set cuda_driver_lib ""
set hsa_runtime_lib ""
set offload_plugins ""
set offload_targets ""
EOF
  board=
  if [ "$cfg" = 1 ]; then
    echo "set test_timeout $exec_timeout" >>"$dir/site.exp"
  else
    # DejaGnu's own limit only backs up timeout(1)'s.
    echo "set test_timeout $((exec_timeout + 30))" >>"$dir/site.exp"
    # Fortran: one optimisation level instead of GCC's torture list.
    echo 'set TORTURE_OPTIONS [list { -O2 }]' >>"$dir/site.exp"
    p=${cfg%%x*} t=${cfg#*x} mpiexec=
    t=${t%-tcp} t=${t%-steal}
    case $cfg in
      *-tcp) mpiexec="OMPC_MPIEXEC='$vcluster run'; export OMPC_MPIEXEC" ;;
      *-steal) mpiexec="OMPC_TASK_STEAL=1; export OMPC_TASK_STEAL" ;;
    esac
    cat >"$dir/launch.sh" <<EOF
#!/bin/sh
# Runs one test program on $p nodes of $t threads (configuration $cfg).
$mpiexec
exec timeout -k 5 $exec_timeout "$OMPC_BUILD/bin/ompcrun" -n $p -t $t "\$@"
EOF
    chmod +x "$dir/launch.sh"
    board="--target_board=ompcluster-$cfg"
    mkdir -p "$dir/boards"
    cat >"$dir/boards/ompcluster-$cfg.exp" <<EOF
# Runs every test program through ompcrun in configuration $cfg.
load_base_board_description "unix"
# Local, although not named after this host (runtest presets 1).
unset_board_info isremote
set_board_info isremote 0
set_board_info exec_shell "$dir/launch.sh"
EOF
  fi
  start=$(date +%s)
  # OMPC_GCC_TESTS is split as the shell would split it (quotes group).
  # shellcheck disable=SC2086
  (cd "$dir" && eval "set -- ${OMPC_GCC_TESTS:-$files}" \
   && "$RUNTEST" --tool libgomp $board "$@" >"$dir/runtest.out" 2>&1)
  status=$?
  echo "run.sh: $suite [$cfg]: runtest exited $status after $(( $(date +%s) - start )) s"
  [ -f "$dir/libgomp.sum" ] && return 0
  echo "run.sh: runtest wrote no libgomp.sum; see $dir/runtest.out" >&2
  tail -20 "$dir/runtest.out" >&2
  return 1
}

# Turns DIR's raw summary into libgomp.sum for configuration CFG: with
# several nodes results name the configuration, and a pass after the first
# (FIRST 0) keeps only execution results (it replayed the first one's
# compiles); then expected failures are applied.  Fails when a result is
# unexpected or the list is too long.
finish_pass () {
  cfg=$1 dir=$2 first=$3
  if [ "$cfg" = 1 ]; then
    xfail="$here/expected-failures.txt"
    mv "$dir/libgomp.sum" "$dir/libgomp.raw-sum"
  else
    xfail="$here/expected-failures-$cfg.txt"
    [ -f "$xfail" ] || xfail="$here/expected-failures-${cfg%-*}.txt"
    awk -v cfg="$cfg" -v first="$first" '
      /^[A-Z]+: / {
	if (!first && $0 !~ / execution test/)
	  next
	print $0 " [" cfg "]"
	next
      }
      { print }' "$dir/libgomp.sum" >"$dir/libgomp.raw-sum"
    rm "$dir/libgomp.sum"
  fi
  [ -f "$xfail" ] || xfail=/dev/null
  if ! awk -f "$here/apply-xfail.awk" "$xfail" "$dir/libgomp.raw-sum" \
       >"$dir/libgomp.sum"; then
    echo "run.sh: bad expected-failures list $xfail" >&2
    return 1
  fi
  # Tests (files) that ran, and how many of them the list excused: fewer
  # than 10% may be (checked on whole runs, not on OMPC_GCC_TESTS subsets).
  ran=$(awk '/^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED):/ {print $2}' \
    "$dir/libgomp.raw-sum" | sort -u | wc -l)
  excused=$(awk '/^XFAIL:.*\[expected: / {print $2}' "$dir/libgomp.sum" | \
    sort -u | wc -l)
  echo "run.sh: [$cfg] $ran tests ran; $excused of them are listed expected failures"
  if [ -z "${OMPC_GCC_TESTS:-}" ] && [ "$excused" -gt 0 ] \
     && [ $((excused * 10)) -ge "$ran" ]; then
    echo "FAIL: gcc-libgomp [$cfg]: $excused of $ran tests are listed expected failures (10% or more)" \
      >>"$dir/libgomp.sum"
  fi
  grep -E '^# of ' "$dir/libgomp.sum"
  grep -E '^(FAIL|UNRESOLVED|XPASS):' "$dir/libgomp.sum" | head -50
  grep -E '^NOTE: ' "$dir/libgomp.sum"
  ! grep -qE '^(FAIL|UNRESOLVED|XPASS):' "$dir/libgomp.sum"
}

echo "run.sh: $suite:$files against $libdir (configurations: $configs)"
result=0 first=1
for cfg in $configs; do
  dir=$out
  [ "$configs" = "$cfg" ] || dir="$out/$cfg"
  case $cfg in
    *-tcp)
      if ! why=$("$vcluster" check 2>&1); then
	mkdir -p "$dir"
	echo "UNSUPPORTED: gcc-libgomp [$cfg] (${why#vcluster: })" \
	  >"$dir/libgomp.sum"
	echo "run.sh: [$cfg] skipped: $why"
	continue
      fi ;;
  esac
  run_pass "$cfg" "$dir" || { result=1; continue; }
  finish_pass "$cfg" "$dir" $first || result=1
  first=0
done
exit $result
