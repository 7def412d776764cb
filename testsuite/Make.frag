# testsuite/Make.frag -- `make check`: the project's DejaGnu tests, then GCC's
# own libgomp testsuite against this runtime; the last line printed is
# "N passed, N failed, N skipped".  CHECK_SUITES picks parts (default: all).

CHECK_SUITES ?= all

check: all
	OMPC_BUILD=$(abs_builddir) OMPC_SRCDIR=$(abs_srcdir) RUNTEST=$(RUNTEST) \
	  $(srcdir)/testsuite/run-check.sh $(CHECK_SUITES)

# `make fuzz SEEDS=1-1000`: differential fuzzing against GCC's libgomp
# (testsuite/fuzz/run-fuzz.sh; FUZZ_CONFIGS, FUZZ_OPTS, FUZZ_TIMEOUT and
# FUZZ_OUT are passed through the environment).  Failing seeds are kept in
# fuzz-out/seed-N/; the last line is "N passed, N failed".
SEEDS ?= 1-100

.PHONY: fuzz
fuzz: all
	OMPC_BUILD=$(abs_builddir) OMPC_SRCDIR=$(abs_srcdir) \
	  $(srcdir)/testsuite/fuzz/run-fuzz.sh $(SEEDS)
