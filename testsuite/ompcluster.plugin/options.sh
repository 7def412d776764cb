# options.sh -- the rewrites hold at every optimisation level, with debug
# information, link-time optimisation (plugin at compile time), position
# independent code and without it: the run tests of this folder built with
# each set of options give the same results (and GCC's own consistency
# checks, -fchecking=2, find nothing wrong).  By default (inline-atomics)
# every OpenMP function holding a lock-prefixed instruction also calls the
# runtime's ompc_* atomics (the cluster path beside the guarded native
# one); with no-inline-atomics no lock-prefixed instruction is left at all.
. "$SRC/aux/lib.sh"

check_atomics () {
  sh "$SRC/aux/atomics-check.sh" "$@"
}

i=0
for opts in -O0 -O1 -O2 -O3 -Os "-O2 -g" "-O2 -flto" "-O0 -flto" "-fPIC -pie" \
	    "-O2 -fno-pie -no-pie" "-O3 -march=native" "-O0 -fchecking=2" \
	    "-O2 -fchecking=2" "-O0 -fplugin-arg-ompcluster-no-inline-atomics" \
	    "-O2 -fchecking=2 -fplugin-arg-ompcluster-no-inline-atomics"; do
  i=$((i + 1))
  for t in omp-atomic globals heap builtins; do
    case $opts/$t in
      *no-inline-atomics*) lockcheck="check_atomics nolock" ;;
      */omp-atomic|*/builtins) lockcheck="check_atomics guarded-need" ;;
      *) lockcheck="check_atomics guarded" ;;
    esac
    check "$t $opts" \
      "\"$OMPCC\" $opts -Wno-sync-nand \"$SRC/$t.c\" -o $t-$i.exe && OMP_NUM_THREADS=2 ./$t-$i.exe && $lockcheck $t-$i.exe"
  done
  check "fortran $opts" \
    "\"$OMPCC\" $opts \"$SRC/fortran.f90\" -o f-$i.exe && OMP_NUM_THREADS=2 ./f-$i.exe"
done
