# bench/Make.frag -- `make bench` (single node), `make bench-cluster`,
# `make bench-plugin`, `make bench-npb`, `make bench-memmodel` and
# `make bench-tasks`.
#
# make bench: builds bench/micro/ompbench.c once with plain `$(CC) -fopenmp`
# (no plugin, no rpath) and runs that one binary on our lib/libgomp.so.1, on
# GCC's libgomp and on LLVM's libomp (bench/micro/run.sh), writing
# bench/results/single-node.md in the source tree.  BENCH_* variables in the
# environment tune it (see run.sh).

BENCH_OUT = bench-out

$(BENCH_OUT)/ompbench: $(srcdir)/bench/micro/ompbench.c
	@mkdir -p $(BENCH_OUT)
	$(CC) -O2 -fopenmp -Wall -o $@ $< -ldl

bench: $(BENCH_OUT)/ompbench
	-$(MAKE) all-runtime
	$(srcdir)/bench/micro/run.sh $(abs_builddir) $(abs_builddir)/$(BENCH_OUT) \
	  $(abs_srcdir)/bench/results/single-node.md

# make bench-cluster: bench/cluster/run.sh builds the floor, the cluster
# microbenchmark and the applications (OpenMP versions with bin/ompcc and
# with plain gcc -fopenmp, MPI twins with mpicc), runs them, and writes
# bench/results/cluster.md; whatever cannot be built or run is reported as
# such there.
bench-cluster:
	-$(MAKE) all
	CC="$(CC)" MPIEXEC="$(MPIEXEC)" $(srcdir)/bench/cluster/run.sh $(abs_builddir) \
	  $(abs_builddir)/$(BENCH_OUT)/cluster $(abs_srcdir)/bench/results/cluster.md

# make bench-plugin: the plugin's overhead at one node, plugged against
# plain builds (bench/plugin/run.sh), writing bench/results/plugin-overhead.md.
bench-plugin:
	-$(MAKE) all
	CC="$(CC)" $(srcdir)/bench/plugin/run.sh $(abs_builddir) \
	  $(abs_builddir)/$(BENCH_OUT)/plugin $(abs_srcdir)/bench/results/plugin-overhead.md

# make bench-npb NPB_DIR=/path/to/NPB3.0-omp-C: NPB 3.0's OpenMP C
# benchmarks, from sources the user has (never in this repository), built
# with bin/ompcc and with plain gcc -fopenmp under $(BENCH_OUT)/npb and run
# at several nodes x threads (bench/npb/run.sh), writing
# bench/results/npb.md.  NPB_CLASS, NPB_BENCHS, NPB_CONFIGS, NPB_PLAN,
# NPB_RUNS, NPB_TIMEOUT, NPB_STATS, NPB_NICE and NPB_NOTE choose what runs,
# NPB_RESUME=1 goes on with an interrupted run (see run.sh); the report
# names the command that made it.
NPB_VARS = NPB_DIR NPB_CLASS NPB_BENCHS NPB_CONFIGS NPB_PLAN NPB_RUNS \
  NPB_TIMEOUT NPB_STATS NPB_NICE NPB_NOTE NPB_RESUME
bench-npb:
	-$(MAKE) all
	$(foreach v,$(NPB_VARS),$(v)="$($(v))") CC="$(CC)" \
	  NPB_COMMAND='make bench-npb NPB_DIR=.../$(notdir $(abspath $(NPB_DIR))) $(strip $(foreach v,$(filter-out NPB_DIR NPB_RESUME,$(NPB_VARS)),$(if $($(v)),$(v)="$($(v))")))' \
	  $(srcdir)/bench/npb/run.sh $(abs_builddir) $(abs_builddir)/$(BENCH_OUT)/npb \
	  $(abs_srcdir)/bench/results/npb.md

# make bench-memmodel: an LU-style wavefront pipeline (flags and flushes)
# at several nodes x threads (bench/memmodel/run.sh; MM_CONFIGS, MM_RUNS,
# MM_SWEEPS, MM_TIMEOUT), writing bench/results/memmodel.md.
bench-memmodel:
	-$(MAKE) all
	$(srcdir)/bench/memmodel/run.sh $(abs_builddir) \
	  $(abs_builddir)/$(BENCH_OUT)/memmodel $(abs_srcdir)/bench/results/memmodel.md

# make bench-tasks: the task programs bench/apps/task_*.c built with
# bin/ompcc and launched at several nodes x threads (bench/tasks/run.sh),
# writing bench/results/tasks.md.  TASK_RUNS, TASK_APPS, TASK_CONFIGS,
# TASK_TIMEOUT and TASK_NOTE choose what runs (see run.sh).
bench-tasks:
	-$(MAKE) all
	$(srcdir)/bench/tasks/run.sh $(abs_builddir) \
	  $(abs_builddir)/$(BENCH_OUT)/tasks $(abs_srcdir)/bench/results/tasks.md

clean-bench:
	rm -rf $(BENCH_OUT)

clean: clean-bench
