/* A library preloaded on rank 1 only, by a wrapper script that sets
   LD_PRELOAD when PMI_RANK is 1 (as a site's login script might): the
   libraries' addresses differ and the job is refused at start-up, naming
   what differs and saying what to do.  */
/* ompc-nodes: 2x1 */
/* ompc-run: w=%exe.sh; printf '#!/bin/sh\n[ "$PMI_RANK" = 1 ] && export LD_PRELOAD=/lib/x86_64-linux-gnu/libm.so.6\nexec "$@"\n' >$w; chmod +x $w; OMP_NUM_THREADS=%threads %build/bin/ompcrun -n %nodes $w %exe; st=$?; rm -f $w; exit $st */
/* ompc-exit: 1 */
/* ompc-output: rank 0: fatal error: the ranks do not see the same addresses */
/* ompc-output: libc \(malloc\) is at 0x[0-9a-f]+ on rank 0 but at 0x[0-9a-f]+ on rank 1 */
/* ompc-output: no LD_PRELOAD on some ranks only */
/* ompc-no-output: ran with */
/* ompc-within: 15 */
/* ompc-timeout: 30 */
#include <stdio.h>

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction (+:n)
  n++;
  printf ("ran with %d threads\n", n);
  return 0;
}
