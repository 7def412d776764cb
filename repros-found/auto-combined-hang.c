/* At 2x1 (and 2x2, 3x1) this hangs; GCC's libgomp and one node print and exit.
   GCC compiles "parallel" + "for schedule(auto)" into GOMP_parallel_loop_static
   whose outlined body schedules the iterations inline and never calls
   GOMP_loop_end*: across nodes the work-share ring slot of that construct is
   never released, so the ninth later construct needing a slot waits for ever
   in gomp_work_share_start.  Found by testsuite/fuzz (seeds 16, 22).  The
   one-node hang of issue 14 (item 6) goes away when its first loop,
   "parallel for schedule(auto) reduction(...)", gets schedule(static): most
   likely the same construct left unended.  */
#include <stdio.h>
#include <stdint.h>
int main(void)
{
  uint32_t r0 = 80;
  static long a[100];
#pragma omp parallel
#pragma omp for schedule(auto) reduction(+:r0)
  for (long i = 1017; i >= 0; i--)
    r0 += (uint32_t)i;
  printf("r0 %u\n", r0);
  for (int k = 0; k < 9; k++) {
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < 100; i++) a[i] += i;
  }
  printf("a %ld\n", a[7]);
  return 0;
}
