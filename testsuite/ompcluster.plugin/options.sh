# options.sh -- the rewrites hold at every optimisation level, with debug
# information, link-time optimisation (plugin at compile time), position
# independent code and without it: the run tests of this folder built with
# each set of options give the same results (and GCC's own consistency
# checks, -fchecking=2, find nothing wrong), and no lock-prefixed
# instruction is left in the OpenMP code (except with inline-atomics,
# whose guarded native path must give the same results).
. "$SRC/aux/lib.sh"

nolock () {
  ! objdump -d --no-show-raw-insn "$1" |
    awk '/^[0-9a-f]+ <(main|__ompc_user_main|test_[a-z0-9_]*|main\._omp_fn\.[0-9]+)>:/ {f=1; next} /^$/ {f=0} f' |
    grep -w lock
}

guarded () {
  nm "$1" | grep -q ' ompc_cluster_slot'
}

i=0
for opts in -O0 -O1 -O2 -O3 -Os "-O2 -g" "-O2 -flto" "-O0 -flto" "-fPIC -pie" \
	    "-O2 -fno-pie -no-pie" "-O3 -march=native" "-O0 -fchecking=2" \
	    "-O2 -fchecking=2" "-O0 -fplugin-arg-ompcluster-inline-atomics" \
	    "-O2 -fchecking=2 -fplugin-arg-ompcluster-inline-atomics"; do
  i=$((i + 1))
  # inline-atomics keeps the native instruction behind a test (by design).
  case $opts in *inline-atomics*) lockcheck=guarded ;; *) lockcheck=nolock ;; esac
  for t in omp-atomic globals heap builtins; do
    check "$t $opts" \
      "\"$OMPCC\" $opts -Wno-sync-nand \"$SRC/$t.c\" -o $t-$i.exe && OMP_NUM_THREADS=2 ./$t-$i.exe && $lockcheck $t-$i.exe"
  done
  check "fortran $opts" \
    "\"$OMPCC\" $opts \"$SRC/fortran.f90\" -o f-$i.exe && OMP_NUM_THREADS=2 ./f-$i.exe"
done
