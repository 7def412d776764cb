/* omp_test_lock across nodes: tries succeed eventually; a node that tried
   once and gave up does not keep the lock from the others.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 90 */
#include <omp.h>
#include <stdio.h>
static omp_lock_t l;
static long count, tries;
int main (void)
{
  omp_init_lock (&l);
  int team = 0;
#pragma omp parallel
  {
    int me = omp_get_thread_num ();
#pragma omp master
    team = omp_get_num_threads ();
    /* The last thread tries once at the start, then never touches the lock
       again until the barrier.  */
    if (me == omp_get_num_threads () - 1 && me > 0)
      {
        if (omp_test_lock (&l))
          {
            count++;
            omp_unset_lock (&l);
          }
      }
    else
      for (int i = 0; i < 200; i++)
        {
          while (!omp_test_lock (&l))
            {
#pragma omp atomic
              tries++;
            }
          count++;
          omp_unset_lock (&l);
        }
#pragma omp barrier
  }
  long want = team > 1 ? 200L * (team - 1) : 200;
  if (count < want || count > want + 1)
    {
      printf ("count %ld, expected %ld or one more\n", count, want);
      return 1;
    }
  printf ("OK %d threads, %ld failed tries\n", team, tries);
  return 0;
}
