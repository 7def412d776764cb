# scripts/Make.hosts.frag -- `make check-hosts`: the tests across separate
# hosts of a virtual cluster in Linux namespaces (scripts/vcluster,
# docs/hosts.md).  Needs root; without it every test is reported skipped.
# The last line printed is "N passed, N failed, N skipped".
#
# CHECK_HOSTS_SUITES picks the suites (see scripts/vcluster-check.sh):
# "hosts" (the virtual cluster's own tests and the cluster tests at 2x1,
# 2x2, 3x1 over TCP) and "gcc-libgomp-2x1" (GCC's libgomp tests at 2 hosts
# of 1 thread; "gcc-libgomp-2x1-c" for the C part only).

CHECK_HOSTS_SUITES ?= hosts gcc-libgomp-2x1

.PHONY: check-hosts
check-hosts: all
	OMPC_BUILD=$(abs_builddir) OMPC_SRCDIR=$(abs_srcdir) RUNTEST=$(RUNTEST) \
	  $(srcdir)/scripts/vcluster-check.sh $(CHECK_HOSTS_SUITES)
