/* A library that differs on rank 1 (another build of it, same size and
   layout: the addresses all agree) makes the job refuse to start, rank 0
   naming the library and the rank; the same library everywhere runs.
   The run builds two versions of libfaildiff.so and gives rank 1 the
   other one through LD_LIBRARY_PATH (a wrapper looking at PMI_RANK), as
   on a cluster whose nodes have different versions installed.  */
/* ompc-nodes: 2x1 */
/* ompc-run: d=%exe.d; rm -rf $d; mkdir -p $d/a $d/b && printf 'int faildiff_value (void) { return 1; }\n' >$d/a.c && printf 'int faildiff_value (void) { return 2; }\n' >$d/b.c && gcc -shared -fPIC $d/a.c -o $d/a/libfaildiff.so && gcc -shared -fPIC $d/b.c -o $d/b/libfaildiff.so && %build/bin/ompcc %src -o %exe.lib -L$d/a -Wl,--no-as-needed -lfaildiff || exit 99; w=$d/wrap.sh; printf '#!/bin/sh\nif [ "$PMI_RANK" = 1 ]; then LD_LIBRARY_PATH=%s/b; else LD_LIBRARY_PATH=%s/a; fi\nexport LD_LIBRARY_PATH\nexec "$@"\n' $d $d >$w; chmod +x $w; printf 'same: '; OMP_NUM_THREADS=%threads LD_LIBRARY_PATH=$d/a %build/bin/ompcrun -n %nodes %exe.lib; OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes $w %exe.lib; st=$?; rm -rf $d %exe.lib; exit $st */
/* ompc-exit: 1 */
/* ompc-output: same: ran with 2 threads, sum 2 */
/* ompc-output: rank 0: fatal error: the ranks do not see the same addresses */
/* ompc-output: libfaildiff.so is another build on rank 1 \(build ID 0x[0-9a-f]+, 0x[0-9a-f]+ on rank 0\) */
/* ompc-output: the same libraries */
/* ompc-no-output: ran with 2 threads, sum [^2] */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

/* Weak, so that the harness's own compilation (no -lfaildiff) links: the
   run links the program again with the library.  */
extern int faildiff_value (void) __attribute__ ((weak));

int
main (void)
{
  int sum = 0, n = 0;
#pragma omp parallel reduction(+ : sum, n)
  {
    sum += faildiff_value ? faildiff_value () : 100;
    n++;
  }
  printf ("ran with %d threads, sum %d\n", n, sum);
  return 0;
}
