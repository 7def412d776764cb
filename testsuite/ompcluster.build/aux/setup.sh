# setup.sh -- sourced by the build folder's check scripts (see ../build.exp):
# OMPC_BUILD, SRC and TMP come from there; the build's wrappers are first
# in PATH, as an installation's would be.

set -u
LC_ALL=C
export LC_ALL
: "${OMPC_BUILD:?}" "${SRC:?}" "${TMP:?}"
OMPC_BUILD=$(cd "$OMPC_BUILD" && pwd)
PATH="$OMPC_BUILD/bin:$PATH"
export PATH
cd "$TMP" || exit 1
. "$SRC/../lib/check.sh"

# run2 PROGRAM REGEXP: runs PROGRAM at 2 nodes x 1 thread; its output must
# match REGEXP and its status be 0.
run2 () {
  _o=$(timeout -k 5 120 ompcrun -n 2 -t 1 "$1" 2>&1)
  _s=$?
  printf '%s\n' "$_o"
  [ $_s = 0 ] && printf '%s\n' "$_o" | grep -q -E "$2"
}
