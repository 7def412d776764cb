#!/bin/sh
# cc-cache.sh COMPILER ARGS... -- runs COMPILER ARGS, remembering each link
# of a test program, so that the cluster suites (run.sh) compile every test
# once and run it in several configurations: DejaGnu compiles the test again
# in each configuration's pass, and the second time this replays the first
# compile (its output, its status and the program) instead.
#
# Only a link to an executable is cached (no -c, -S, -E); files a compile
# leaves beside it (dumps, modules) are not replayed, so a later pass must
# only use its execution results (run.sh keeps only those).  The key is
# the compiler, every argument but the output name, and the contents of
# every argument that names a file (sources, extra objects).
#
# Environment: OMPC_GCC_CACHE, the cache directory (required; run.sh
# makes a fresh one per run).

set -u
: "${OMPC_GCC_CACHE:?cc-cache.sh needs OMPC_GCC_CACHE}"
cc=$1
shift

out= prev= cacheable=yes
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  case $a in
    -c|-S|-E) cacheable=no ;;
  esac
  prev=$a
done
[ -n "$out" ] || cacheable=no
if [ $cacheable = no ]; then
  exec "$cc" "$@"
fi

# The key: the command line without the output name, and what the files it
# names contain.
key=$(
  {
    printf '%s\n' "$cc"
    prev=
    for a in "$@"; do
      if [ "$prev" = -o ]; then
	printf '%s\n' '-o OUT'
      elif [ "$a" != -o ]; then
	printf '%s\n' "$a"
	[ -f "$a" ] && sha1sum <"$a"
      fi
      prev=$a
    done
  } | sha1sum | cut -c1-40)
entry="$OMPC_GCC_CACHE/$key"

if [ -f "$entry.status" ]; then
  cat "$entry.out"
  status=$(cat "$entry.status")
  if [ "$status" = 0 ]; then
    cp "$entry.exe" "$out" || exit 1
  fi
  exit "$status"
fi

"$cc" "$@" >"$entry.tmp" 2>&1
status=$?
cat "$entry.tmp"
# A compile ended by a signal (DejaGnu's time limit on a loaded machine)
# is not remembered: the next pass compiles again.
if [ $status -ge 128 ]; then
  rm -f "$entry.tmp"
  exit $status
fi
if [ $status = 0 ] && [ -f "$out" ]; then
  cp "$out" "$entry.exe"
fi
mv "$entry.tmp" "$entry.out"
echo $status >"$entry.status"
exit $status
