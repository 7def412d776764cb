# testsuite/Make.frag -- `make check`: the project's DejaGnu tests, then GCC's
# own libgomp testsuite against this runtime; the last line printed is
# "N passed, N failed, N skipped".  CHECK_SUITES picks parts (default: all).

CHECK_SUITES ?= all

check: all
	OMPC_BUILD=$(abs_builddir) OMPC_SRCDIR=$(abs_srcdir) RUNTEST=$(RUNTEST) \
	  $(srcdir)/testsuite/run-check.sh $(CHECK_SUITES)
