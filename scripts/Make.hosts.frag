# scripts/Make.hosts.frag -- `make check-hosts`: the tests across separate
# hosts of a virtual cluster in Linux namespaces (scripts/vcluster,
# docs/hosts.md).  Needs root; without it every test is reported skipped.
# The last line printed is "N passed, N failed, N skipped".
#
# CHECK_HOSTS_SUITES picks the suites (see scripts/vcluster-check.sh):
# "hosts" (the virtual cluster's own tests and the cluster tests at 2x1,
# 2x2, 3x1 over TCP) and "gcc-libgomp-tcp" (GCC's libgomp tests, C and
# Fortran, compiled once and run at 2 hosts of 1 thread); the older
# "gcc-libgomp-2x1" compiles every test for that run alone.

CHECK_HOSTS_SUITES ?= hosts gcc-libgomp-tcp

.PHONY: check-hosts
check-hosts: all
	OMPC_BUILD=$(abs_builddir) OMPC_SRCDIR=$(abs_srcdir) RUNTEST=$(RUNTEST) \
	  $(srcdir)/scripts/vcluster-check.sh $(CHECK_HOSTS_SUITES)

# make bench-hosts: bench/cluster/hosts.sh runs bench/cluster/run.sh (the
# floor, the cluster microbenchmark, the applications and their MPI twins)
# with every multi-node launch across the hosts of a virtual cluster,
# writing bench/results/cluster-hosts.md.  Needs root, like check-hosts.
.PHONY: bench-hosts
bench-hosts:
	-$(MAKE) all
	CC="$(CC)" $(srcdir)/bench/cluster/hosts.sh $(abs_builddir) \
	  $(abs_builddir)/bench-out/cluster-hosts $(abs_srcdir)/bench/results/cluster-hosts.md

# make check-slurm: ompcluster jobs under a real Slurm that
# scripts/slurm-check.sh installs (Debian's slurm-wlm, munge), configures in
# a temporary directory, starts and stops itself (docs/slurm.md).  Needs
# root; without it every test is reported skipped.  The last line printed
# is "N passed, N failed, N skipped".
.PHONY: check-slurm
check-slurm: all
	OMPC_BUILD=$(abs_builddir) OMPC_SRCDIR=$(abs_srcdir) \
	  $(srcdir)/scripts/slurm-check.sh
