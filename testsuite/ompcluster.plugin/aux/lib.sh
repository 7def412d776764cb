# lib.sh -- sourced by the plugin's check scripts (see ../plugin.exp):
# OMPC_BUILD, SRC and TMP come from there.

set -u
LC_ALL=C
export LC_ALL
: "${OMPC_BUILD:?}" "${SRC:?}" "${TMP:?}"
OMPCC="$OMPC_BUILD/bin/ompcc"
PLUGIN="$OMPC_BUILD/lib/ompcluster.so"
AUX="$SRC/aux"
cd "$TMP" || exit 1

# check NAME COMMAND: one check; COMMAND is evaluated in a subshell and the
# check passes when it exits 0.  Prints "ok NAME", or "not ok NAME" and
# the command with its output.
check () {
  _name=$1
  shift
  if _out=$( (eval "$*") 2>&1 ); then
    echo "ok $_name"
  else
    echo "not ok $_name"
    printf '%s\n%s\n' "$*" "$_out"
  fi
}

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
