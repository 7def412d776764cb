/* Simple and nestable locks (a contended one taken with test_lock): mutual exclusion, test_lock,
   nesting counts.  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  omp_lock_t l, h;
  omp_nest_lock_t nl;
  long sum = 0, hsum = 0, nsum = 0;
  int errors = 0;
  omp_init_lock (&l);
  omp_init_lock (&h);
  omp_init_nest_lock (&nl);
  /* A free lock is eventually set by omp_test_lock (across nodes the first
     tries may fail while the lock comes from its home), a held one never.  */
  while (!omp_test_lock (&l))
    ;
  if (omp_test_lock (&l))
    errors++;
  omp_unset_lock (&l);
#pragma omp parallel reduction(+:errors)
  {
    for (int i = 0; i < 500; i++)
      {
	omp_set_lock (&l);
	sum++;
	omp_unset_lock (&l);
	while (!omp_test_lock (&h))
	  ;
	hsum++;
	omp_unset_lock (&h);
	omp_set_nest_lock (&nl);
	if (omp_test_nest_lock (&nl) != 2)
	  errors++;
	omp_set_nest_lock (&nl);
	nsum++;
	omp_unset_nest_lock (&nl);
	omp_unset_nest_lock (&nl);
	omp_unset_nest_lock (&nl);
      }
  }
  omp_destroy_lock (&l);
  omp_destroy_lock (&h);
  omp_destroy_nest_lock (&nl);
  int n = omp_get_max_threads ();
  if (errors || sum != 500L * n || hsum != 500L * n
      || nsum != 500L * n)
    {
      fprintf (stderr, "errors %d sum %ld hsum %ld nsum %ld\n", errors, sum,
	       hsum, nsum);
      return 1;
    }
  return 0;
}
