# lib.sh -- sourced by the plugin's check scripts (see ../plugin.exp):
# OMPC_BUILD, SRC and TMP come from there.

set -u
LC_ALL=C
export LC_ALL
: "${OMPC_BUILD:?}" "${SRC:?}" "${TMP:?}"
# The build tree as its wrappers name it (runtest may give it as DIR/..).
OMPC_BUILD=$(cd "$OMPC_BUILD" && pwd)
OMPCC="$OMPC_BUILD/bin/ompcc"
PLUGIN="$OMPC_BUILD/lib/ompcluster.so"
AUX="$SRC/aux"
cd "$TMP" || exit 1

. "$SRC/../lib/check.sh"

# section_of FILE SYMBOL: the section objdump -t gives SYMBOL in FILE.
section_of () {
  objdump -t "$1" | awk -v s="$2" '$NF == s { print $(NF-2); exit }'
}

# in_region EXE SYMBOL: whether SYMBOL lies inside EXE's shared region.
in_region () {
  nm "$1" | awk -v s="$2" '
    $3 == "__ompc_shared_start" { lo = strtonum("0x" $1) }
    $3 == "__ompc_shared_end" { hi = strtonum("0x" $1) }
    $3 == s { a = strtonum("0x" $1); f = 1 }
    END { exit !(f && lo <= a && a < hi) }'
}
