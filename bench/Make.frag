# bench/Make.frag -- `make bench` (single node) and `make bench-cluster`.

bench:
	@echo "make bench: not written yet" >&2; exit 1

bench-cluster:
	@echo "make bench-cluster: not written yet" >&2; exit 1
