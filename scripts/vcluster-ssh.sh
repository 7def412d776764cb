#!/bin/sh
# vcluster-ssh.sh -- hydra's "ssh" into a host of a virtual cluster (see
# scripts/vcluster): mpiexec runs it as `-launcher ssh -launcher-exec
# vcluster-ssh.sh`, with ssh's arguments: options (-x), the host name, then
# the proxy command in words that hydra quoted for a remote shell.  It
# enters every namespace of that host's init (network, UTS, IPC, mount, PID)
# and runs the command through sh -c, in the current directory, with the
# current environment.  $VCLUSTER_STATE (set by vcluster run) holds the
# hosts' init PIDs; when the proxy ends, this records its status in
# HOST.proxy-ended, so that vcluster can end a job that hydra leaves hanging.

while [ $# -gt 0 ]; do
  case $1 in
    -[1246AaCfGgKkMNnqsTtVvXxYy]) shift ;;
    -?) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=${1:?vcluster-ssh.sh: no host}
shift
: "${VCLUSTER_STATE:?vcluster-ssh.sh: VCLUSTER_STATE not set (run through vcluster run)}"
pid=$(cat "$VCLUSTER_STATE/$host.pid" 2>/dev/null) ||
  { echo "vcluster-ssh.sh: $host: no such host in this virtual cluster" >&2; exit 255; }
nsenter -t "$pid" -n -u -i -m -p --wd="$PWD" sh -c "$*"
status=$?
echo "$status" > "$VCLUSTER_STATE/$host.proxy-ended" 2>/dev/null
exit $status
