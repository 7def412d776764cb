/* OMP_STACKSIZE: worker threads get the stack asked for (16 MiB of locals
   in a 24 MiB stack; the default 8 MiB would overflow). */
/* ompc-compile: plain */
/* ompc-nodes: 1 */
/* ompc-env: OMP_STACKSIZE=24M */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

static int errors;
#define CHECK(c) \
  do { if (!(c)) { fprintf (stderr, "line %d: %s\n", __LINE__, #c); errors++; } } while (0)

int
main (void)
{
  int ok = 0;
#pragma omp parallel num_threads(2) reduction(+:ok)
  {
    /* The initial thread's stack is the system's: only workers.  */
    if (omp_get_thread_num () != 0)
      {
        volatile char *big = __builtin_alloca (16 << 20);
        big[0] = 1;
        big[(16 << 20) - 1] = 1;
        ok += big[0];
      }
    else
      ok++;
  }
  CHECK (ok == 2);
  return errors != 0;
}
