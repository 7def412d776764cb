#!/bin/sh
# run.sh -- `make bench-npb`: builds the NAS Parallel Benchmarks 3.0
# (OpenMP C version) from a directory the user names, runs them on this
# runtime at several nodes x threads and on GCC's libgomp, and writes one
# Markdown report.
#
#   run.sh BUILDDIR OUTDIR RESULT.md
#
# NPB's sources are copied from NPB_DIR into OUTDIR twice (NPB_DIR itself
# is only read), each copy with a config/make.def written here: one builds
# with BUILDDIR/bin/ompcc -O2, the other with plain gcc -fopenmp -O2 (GCC's
# libgomp).  Every source is compiled with -include timer-proto.h, the
# prototype of timer_read that NPB's IS lacks; nothing of NPB is edited.
# Each run must print NPB's "Verification = SUCCESSFUL" and end with status
# 0 within the time limit; a run that does not is reported as failed (with
# its reason), never as a time.  Environment (empty means the default):
#   NPB_DIR      the NPB3.0-omp-C directory (required)
#   NPB_CLASS    classes, e.g. "S" or "S W A" (default S)
#   NPB_BENCHS   benchmarks (default "ep cg ft mg is bt sp lu")
#   NPB_CONFIGS  configurations (default "1x1 gcc-1x2 1x2 2x1 2x2 3x1 4x1"):
#                NxT is this runtime at N nodes x T threads (bin/ompcrun
#                -n N -t T), gcc-NxT (N = 1 only) the GCC build on GCC's
#                libgomp with OMP_NUM_THREADS=T; either followed by
#                ",VAR=VALUE" (repeatable) sets VAR for its launches, e.g.
#                "2x1 2x1,OMPC_BIND_RANKS=0" side by side
#   NPB_PLAN     instead of the three above, a list of
#                "CLASS:BENCHS:CONFIGS[:TIMEOUT[:RUNS]]" separated by ";"
#                ("all" or empty for the defaults; TIMEOUT and RUNS
#                replace NPB_TIMEOUT and NPB_RUNS for the class), e.g.
#                "S::; A:ep cg:1x1 gcc-1x2 1x2 2x1:600:1"
#   NPB_RUNS     launches per benchmark and configuration (default 3): the
#                median and the spread (max - min) are reported
#   NPB_TIMEOUT  seconds before one launch is killed (default 300); after
#                a time-out the configuration is not launched again
#   NPB_STATS    the configuration run once more with OMPC_STATS=1 for the
#                statistics table and the cause (default 2x1; "none": no
#                statistics)
#   NPB_NICE     niceness of every build and run (default 5)
#   NPB_RESUME   1: keep the launches an earlier (interrupted) run left in
#                OUTDIR and make only the missing ones
#   NPB_NOTE     a sentence to put in the report
#   NPB_COMMAND  the command line the report names (make bench-npb sets it)

set -u
unset OMPC_STATS
build=$(cd "$1" && pwd) || exit 2
out=$2
result=$3
here=$(cd "$(dirname "$0")" && pwd)
ompcc=$build/bin/ompcc
ompcrun=$build/bin/ompcrun
CC=${CC:-gcc}
runs=${NPB_RUNS:-3}
tmo=${NPB_TIMEOUT:-300}
statcfg=${NPB_STATS:-2x1}
niceness=${NPB_NICE:-5}
all_benchs="ep cg ft mg is bt sp lu"
all_configs="1x1 gcc-1x2 1x2 2x1 2x2 3x1 4x1"

say() { echo "bench-npb: $*" >&2; }
die() { say "$*"; exit 2; }

[ -n "${NPB_DIR:-}" ] || die "name NPB's directory: make bench-npb NPB_DIR=/path/to/NPB3.0-omp-C"
npb=$(cd "$NPB_DIR" 2>/dev/null && pwd) || die "NPB_DIR=$NPB_DIR is not a directory"
for f in Makefile sys/setparams.c sys/make.common common/c_timers.c; do
  [ -f "$npb/$f" ] || die "NPB_DIR=$NPB_DIR has no $f: not NPB 3.0's OpenMP C version"
done
[ -x "$ompcc" ] && [ -x "$ompcrun" ] || die "$build has no bin/ompcc and bin/ompcrun (run make)"
case $runs in ''|*[!0-9]*|0) die "NPB_RUNS must be a positive number" ;; esac
case $tmo in ''|*[!0-9]*|0) die "NPB_TIMEOUT must be a positive number of seconds" ;; esac
case $niceness in ''|*[!0-9]*) die "NPB_NICE must be a number from 0 to 19" ;; esac

# The plan: one "CLASS|BENCHS|CONFIGS" line per class.
if [ -n "${NPB_PLAN:-}" ]; then
  plan=$(printf '%s\n' "$NPB_PLAN" | tr ';' '\n' | awk -F: '
    NF == 0 || $0 ~ /^[[:space:]]*$/ { next }
    { c = $1; gsub(/[[:space:]]/, "", c); b = $2; g = $3; t = $4; n = $5
      gsub(/[[:space:]]/, "", t); gsub(/[[:space:]]/, "", n)
      if (b ~ /^[[:space:]]*(all)?[[:space:]]*$/) b = ""
      if (g ~ /^[[:space:]]*(all)?[[:space:]]*$/) g = ""
      print c "|" b "|" g "|" t "|" n }')
else
  plan=
  for c in ${NPB_CLASS:-S}; do
    plan="$plan$c|${NPB_BENCHS:-}|${NPB_CONFIGS:-}||
"
  done
fi
[ -n "$plan" ] || die "empty NPB_PLAN"
# Check every class, benchmark and configuration before building anything.
printf '%s\n' "$plan" | while IFS='|' read -r c b g t n; do
  [ -n "$c" ] || continue
  case $t in *[!0-9]*) die "class $c: the time-out '$t' is not a number of seconds" ;; esac
  case $n in *[!0-9]*) die "class $c: the launches '$n' are not a number" ;; esac
  case $c in S|W|A|B|C) ;; *) die "class '$c': NPB's classes are S, W, A, B, C" ;; esac
  for x in ${b:-$all_benchs}; do
    case " $all_benchs " in *" $x "*) ;; *) die "benchmark '$x': one of $all_benchs" ;; esac
  done
  for x in ${g:-$all_configs}; do
    case ${x%%,*} in
      gcc-1x[1-9]|gcc-1x[1-9][0-9]|[1-9]x[1-9]|[1-9][0-9]x[1-9]|[1-9]x[1-9][0-9]) ;;
      *) die "configuration '$x': NxT (this runtime) or gcc-1xT (GCC's libgomp), then maybe ,VAR=VALUE..." ;;
    esac
    case $x in
      *,*) for e in $(printf '%s' "${x#*,}" | tr , ' '); do
	     case $e in
	       [A-Z_]*=*) case ${e%%=*} in *[!A-Z0-9_]*) die "configuration '$x': '$e' is no VAR=VALUE" ;; esac ;;
	       *) die "configuration '$x': '$e' is no VAR=VALUE" ;;
	     esac
	   done ;;
    esac
  done
done || exit 2

mkdir -p "$out" || exit 2
tab=$out/npb.tab		# one line per launch, read by report.sh
stab=$out/npb-stats.tab		# report.sh's reading of the statistics runs
logs=$out/logs
# NPB_RESUME=1 keeps the launches of the last run in OUTDIR (with the
# same NPB_RUNS) and makes only those the plan still lacks: a run that
# was interrupted goes on where it stopped.
if [ "${NPB_RESUME:-0}" = 1 ] && [ -s "$tab" ] && [ -f "$out/npb.started" ]; then
  resumed=yes
else
  resumed=no
  rm -rf "$logs"
  : > "$tab"
  : > "$stab"
  date -u '+%Y-%m-%d %H:%M UTC' > "$out/npb.started"
  load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "$load_at_start" > "$out/npb.load"
fi
mkdir -p "$logs"
N="nice -n $niceness"

# ---------------------------------------------------------------- build --
# Two copies of NPB's tree, without anything a build made in NPB_DIR
# (objects, npbparams.h, setparams, bin/, config/make.def).
copy_tree() {			# DEST
  rm -rf "$1"
  mkdir -p "$1" || return 1
  (cd "$npb" && tar --exclude=.git --exclude='*.o' --exclude=npbparams.h \
     --exclude=./bin --exclude=./config/make.def --exclude=./sys/setparams \
     -cf - .) | (cd "$1" && tar -xf -) || return 1
  mkdir -p "$1/bin"
}

write_makedef() {		# DEST CC CFLAGS
  cat > "$1/config/make.def" <<EOF
# Written by bench/npb/run.sh (make bench-npb).
CC = $2
CLINK = $2
C_LIB = -lm
C_INC = -I../common -include $here/timer-proto.h
CFLAGS = $3
CLINKFLAGS = $3
UCC = $CC -O
BINDIR = ../bin
RAND = randdp
WTIME = wtime.c
F77 = false
FLINK = false
EOF
}

# The builds: "ours" with bin/ompcc, "gcc" with plain gcc -fopenmp.
src_name=$(basename "$npb")
# A resumed run keeps the trees and what was built in them.
if [ $resumed = no ] || [ ! -f "$out/ours/config/make.def" ]; then
  copy_tree "$out/ours" && write_makedef "$out/ours" "$ompcc" "-O2" \
    || die "cannot copy $npb into $out/ours"
fi
if [ $resumed = no ] || [ ! -f "$out/gcc/config/make.def" ]; then
  copy_tree "$out/gcc" && write_makedef "$out/gcc" "$CC -fopenmp" "-O2" \
    || die "cannot copy $npb into $out/gcc"
fi

# build_one TREE BENCH CLASS: make in the tree; prints nothing, returns
# make's status; the log is in $logs.
build_one() {
  log=$logs/build-$1-$2.$3.log
  (cd "$out/$1" && $N make "$2" CLASS="$3") < /dev/null > "$log" 2>&1 \
    && [ -x "$out/$1/bin/$2.$3" ] || return 1
  # Each build must load its own runtime: ours the build tree's
  # libgomp.so.1, GCC's the system's.
  lib=$(ldd "$out/$1/bin/$2.$3" 2>/dev/null | awk '$1 == "libgomp.so.1" { print $3 }')
  case $1 in
    ours) [ "$lib" = "$build/lib/libgomp.so.1" ] && return 0 ;;
    gcc) case $lib in "$build"/*|'') ;; *) return 0 ;; esac ;;
  esac
  echo "error: $1's $2.$3 loads libgomp.so.1 from ${lib:-nowhere}" >> "$log"
  return 1
}

# -------------------------------------------------------------- running --
# launch CONFIG BIN LOG: one run; sets $st ("ok" or why not) and $t (NPB's
# time), $w (wall seconds).
launch() {
  cfg=$1 bin=$2 log=$3
  # NxT,VAR=VALUE,...: the variables set for the launch.
  base=${cfg%%,*} vars=
  case $cfg in *,*) vars=$(printf '%s' "${cfg#*,}" | tr , ' ') ;; esac
  case $base in
    gcc-*) th=${base#gcc-1x}
	   # shellcheck disable=SC2086
	   set -- env $vars OMP_NUM_THREADS="$th" "$bin" ;;
    # shellcheck disable=SC2086
    *) set -- env $vars "$ompcrun" -n "${base%x*}" -t "${base#*x}" "$bin" ;;
  esac
  t0=$(date +%s.%N)
  # Never the loop's standard input (the plan): mpiexec would read it.
  timeout -k 10 "$tmo" $N "$@" < /dev/null > "$log" 2> "$log.err"
  rc=$?
  t1=$(date +%s.%N)
  w=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
  t=$(sed -n 's/^ *Time in seconds *= *\([0-9.]*\).*/\1/p' "$log" | head -1)
  ver=$(sed -n 's/^ *Verification *= *\([A-Z]*\).*/\1/p' "$log" | head -1)
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    st="timed out (> $tmo s)"
  elif [ "$ver" = UNSUCCESSFUL ]; then
    st="verification UNSUCCESSFUL"
  elif [ $rc -ne 0 ]; then
    r=$(grep -v '^[[:space:]]*$' "$log.err" | grep -v '^ompcluster' | head -1 | cut -c1-100 | tr '|' '/')
    st="exit status $rc${r:+: $r}"
  elif [ "$ver" != SUCCESSFUL ]; then
    st="no verification line"
  elif [ -z "$t" ]; then
    st="no time line"
  else
    st=ok
  fi
}

nproc=$(nproc 2>/dev/null || echo 1)
load_start=$(cat "$out/npb.load" 2>/dev/null)
date_start=$(cat "$out/npb.started")
[ $resumed = yes ] && date_start="$date_start (resumed $(date -u '+%H:%M UTC') with NPB_RESUME=1, load $(cut -d' ' -f1-3 /proc/loadavg))"
start=$(date +%s)
# The runtime measured: the last commit that changed it (it stays the
# same when the branch the harness is on is rebased).
commit=$(cd "$here/../.." && git log -1 --format=%h -- libgomp-cluster gcc-plugin 2>/dev/null)
commit="${commit:-unknown} (the last commit of libgomp-cluster/ and gcc-plugin/), harness at $(cd "$here" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
dirty=$(cd "$here" && git status --porcelain -- ../../libgomp-cluster ../../gcc-plugin 2>/dev/null | head -1)
[ -n "$dirty" ] && commit="$commit (runtime or plugin modified)"
model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)

# write_report DONE: the report from what ran so far (after every
# benchmark too, so that an interrupted run still leaves its figures,
# marked as incomplete).
write_report() {
  NPB_DONE=$1 NPB_SRC_NAME=$src_name NPB_NPROC=$nproc \
  NPB_LOAD_START=$load_start NPB_LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg) \
  NPB_DATE=$date_start NPB_END=$(date -u '+%H:%M UTC') \
  NPB_COMMIT=$commit NPB_RUNS="$runs launches$(printf '%s' "$plan" | awk -F'|' '$5 { printf "%sclass %s: %s", n++ ? ", " : " (", $1, $5 } END { if (n) printf ")" }')" NPB_TIMEOUT="${NPB_TIMEOUT:-300} s$(printf '%s' "$plan" | awk -F'|' '$4 { printf "%sclass %s: %s s", n++ ? ", " : " (", $1, $4 } END { if (n) printf ")" }')" NPB_STATS=$statcfg \
  NPB_NICE=$niceness NPB_MODEL=$model \
  NPB_PLAN_TEXT=$(printf '%s' "$plan" | awk -F'|' 'NF { printf "%s%s: %s at %s", n++ ? "; " : "", $1, $2 ? $2 : "'"$all_benchs"'", $3 ? $3 : "'"$all_configs"'" }') \
  NPB_RESUMED=$resumed \
    "$here/report.sh" "$tab" "$stab" > "$result.tmp" && mv "$result.tmp" "$result" \
    || die "cannot write $result"
}

printf '%s\n' "$plan" | while IFS='|' read -r class benchs configs ctmo cruns; do
  [ -n "$class" ] || continue
  tmo=${ctmo:-${NPB_TIMEOUT:-300}}
  runs=${cruns:-${NPB_RUNS:-3}}
  benchs=${benchs:-$all_benchs}
  configs=${configs:-$all_configs}
  for b in $benchs; do
    say "build $b.$class"
    ok_ours=yes ok_gcc=yes
    build_one ours "$b" "$class" || ok_ours=no
    case " $configs " in *" gcc-"*) build_one gcc "$b" "$class" || ok_gcc=no ;; esac
    for cfg in $configs; do
      case $cfg in gcc-*) tree=gcc ok=$ok_gcc ;; *) tree=ours ok=$ok_ours ;; esac
      if [ $ok = no ] && ! grep -q "^$class $b $cfg 0 " "$tab"; then
	r=$(grep -i 'error' "$logs/build-$tree-$b.$class.log" | head -1 | cut -c1-100 | tr '|' '/')
	echo "$class $b $cfg 0 build failed${r:+: $r}" >> "$tab"
      fi
    done
    # The launches go round the configurations, one of each per round, so
    # that a machine whose speed drifts during the run weighs on all of
    # them alike.  Resuming, the launches already made count; a
    # configuration that timed out is not launched again.
    round=1
    while [ $round -le "$runs" ]; do
      for cfg in $configs; do
	case $cfg in gcc-*) tree=gcc ok=$ok_gcc ;; *) tree=ours ok=$ok_ours ;; esac
	[ $ok = yes ] || continue
	i=$(awk -v k="$class $b $cfg" 'index($0, k " ") == 1 { n++; if ($0 ~ / timed out /) n = 1000 } END { print n + 1 }' "$tab")
	[ "$i" -le $round ] || continue
	bin=$out/$tree/bin/$b.$class
	say "$b.$class $cfg run $i"
	launch "$cfg" "$bin" "$logs/$b.$class.$cfg.$i"
	echo "$class $b $cfg $i $w ${t:--} $st" >> "$tab"
      done
      round=$((round + 1))
    done
    # Then the statistics run.
    case " $configs " in
      *" $statcfg "*)
	if [ $ok_ours = yes ] && ! grep -q "^$class $b stats " "$tab"; then
	  say "$b.$class $statcfg with OMPC_STATS=1"
	  OMPC_STATS=1
	  export OMPC_STATS
	  launch "$statcfg" "$out/ours/bin/$b.$class" "$logs/$b.$class.$statcfg.stats"
	  unset OMPC_STATS
	  echo "$class $b stats 1 $w ${t:--} $st" >> "$tab"
	fi ;;
    esac
    write_report no
  done
done

write_report yes
say "wrote $result"
