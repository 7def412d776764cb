#!/bin/sh
# leftovers.sh [PATTERN] -- what a virtual cluster could leave behind in the
# machine's own namespaces, for hosts.exp to compare before and after a job:
# network namespaces, links and mounts, and processes whose command line
# matches PATTERN (an extended regexp, e.g. the test programs' directory).
# Everything vcluster creates lives in namespaces of its own, so none of
# this may change.  (Other virtual clusters running at the same time do not
# show here; vc-fault.sh checks one cluster's inits and state directory.)

echo "== netns"; ip netns list 2>/dev/null
echo "== links"; ip -o link show | awk -F': ' '{ print $2 }'
echo "== mounts"; cut -d' ' -f1-3 /proc/self/mounts
echo "== processes"
if [ -n "${1:-}" ]; then
  ps -eo pid=,args= | grep -E -e "$1" | grep -v -E 'grep|leftovers.sh'
fi
exit 0
