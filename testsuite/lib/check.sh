# check.sh -- sourced by the check scripts that ompc_run_script runs
# (testsuite/lib/ompcluster.exp).

# skip NAME: a check that cannot run here (a tool missing); NAME should
# say why.  Reported UNSUPPORTED, never passed.
skip () {
  echo "skip $*"
}

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
