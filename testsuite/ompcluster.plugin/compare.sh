# compare.sh -- a program built with the plugin behaves as the same program
# built by a plain gcc -fopenmp against GCC's own libgomp: same exit status
# and same output, at several thread counts.  (The run tests check their
# own results; this checks those expectations against GCC.)
. "$SRC/aux/lib.sh"

for t in omp-atomic.c heap.c main-exit.c fortran.f90; do
  case $t in *.f90) cc=gfortran ;; *) cc=gcc ;; esac
  base=${t%.*}
  args=
  [ $base = main-exit ] && args='one "two words" 3'
  check "$t builds both ways" \
    "$cc -fopenmp \"$SRC/$t\" -o $base-plain.exe && \"$OMPCC\" \"$SRC/$t\" -o $base-plugin.exe"
  for n in 1 2 3; do
    check "$t with $n threads: same status and output" \
      "OMP_NUM_THREADS=$n OMPC_TEST_VAR=value ./$base-plain.exe $args > $base-plain.out 2>&1; echo status \$? >> $base-plain.out; OMP_NUM_THREADS=$n OMPC_TEST_VAR=value ./$base-plugin.exe $args > $base-plugin.out 2>&1; echo status \$? >> $base-plugin.out; diff $base-plain.out $base-plugin.out"
  done
done
