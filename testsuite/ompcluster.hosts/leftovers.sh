#!/bin/sh
# leftovers.sh -- what a virtual cluster could leave behind on this machine,
# for hosts.exp to compare before and after a job: network namespaces, links
# and mounts of the machine's own namespaces, vcluster state directories,
# and processes of a virtual cluster (inits, launchers, proxies, the test
# programs).  Everything vcluster creates lives in namespaces of its own, so
# the output must not change.

echo "== netns"; ip netns list 2>/dev/null
echo "== links"; ip -o link show | awk -F': ' '{ print $2 }'
echo "== mounts"; cut -d' ' -f1-3 /proc/self/mounts
echo "== state"; ls "${VCLUSTER_STATE_DIR:-/run/vcluster}" 2>/dev/null
echo "== processes"
ps -eo pid=,args= | grep -E '/run/vcluster|vcluster-ssh|control-port vhead|mpi-(hello|pingpong|finalize)' |
  grep -v -E 'grep|leftovers.sh'
exit 0
