#!/bin/sh
# exports.sh LIB -- prints the GOMP_* and OMP_* ABI of a libgomp.so.1 in a
# form two libraries can be compared by (diff): first the version nodes of
# those two families in definition order, each with the node it inherits
# from ("node OMP_2.0 OMP_1.0"), then every exported symbol of those nodes,
# sorted, as "NAME@@NODE" (default version) or "NAME@NODE" (old version
# kept for binaries linked before it changed).  OpenACC (OACC_*, GOACC_*),
# the offload plugin interface (GOMP_PLUGIN_*) and any other node are left
# out.  Used by gen-abi.sh (to write libgomp.map and stubs.c from GCC 12's
# library) and by abi.exp (to compare ours with GCC's).

set -eu
lib=${1:?usage: exports.sh LIB}
[ -r "$lib" ] || { echo "exports.sh: cannot read $lib" >&2; exit 2; }
family='^G?OMP_[0-9][0-9.]*$'

# "Version definitions:" lines are "INDEX FLAGS HASH NAME", each optionally
# followed by an indented line naming the parent.
objdump -p "$lib" | awk -v fam="$family" '
  /^Version definitions:/ { on = 1; next }
  on && /^Version References:/ { on = 0 }
  on && /^[0-9]/ { flush(); cur = $4; parent = ""; next }
  on && /^[ \t]+[^ \t]/ { parent = $1; next }
  function flush() { if (cur ~ fam) print "node " cur (parent != "" ? " " parent : "") }
  END { flush() }'

# Dynamic symbols: "ADDR FLAGS TYPE SECTION SIZE VERSION NAME"; a version
# in parentheses is a hidden (non-default) one.  Undefined symbols and the
# version's own *ABS* marker are skipped.
objdump -T "$lib" | awk -v fam="$family" '
  / D[FO] / && $(NF-3) != "*UND*" && $(NF-3) != "*ABS*" {
    v = $(NF-1); name = $NF; sep = "@@"
    if (v ~ /^\(.*\)$/) { v = substr(v, 2, length(v) - 2); sep = "@" }
    if (v ~ fam) print name sep v
  }' | sort
