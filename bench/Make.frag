# bench/Make.frag -- `make bench` (single node), `make bench-cluster` and
# `make bench-plugin`.
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

clean-bench:
	rm -rf $(BENCH_OUT)

clean: clean-bench
