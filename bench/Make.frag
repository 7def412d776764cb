# bench/Make.frag -- `make bench` (single node) and `make bench-cluster`.
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

bench-cluster:
	@echo "make bench-cluster: not written yet" >&2; exit 1

clean-bench:
	rm -rf $(BENCH_OUT)

clean: clean-bench
