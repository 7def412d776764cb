/* schedule(static) loops, with and without a chunk size (GCC expands them
   inline with omp_get_num_threads/omp_get_thread_num), the GOMP entry
   points for static loops (runtime with OMP_SCHEDULE=static), and nowait: every iteration runs exactly once, static chunks go
   round-robin.  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-env: OMP_SCHEDULE=static,3 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 1003
static int hits[N], owner[N];

static int
check (const char *what)
{
  int bad = 0;
  for (int i = 0; i < N; i++)
    if (hits[i] != 1)
      bad++;
  if (bad)
    fprintf (stderr, "%s: %d iterations not run exactly once\n", what, bad);
  memset (hits, 0, sizeof hits);
  return bad;
}

int
main (void)
{
  int errors = 0, nth = 1;
#pragma omp parallel
  {
#pragma omp single
    nth = omp_get_num_threads ();
#pragma omp for schedule(static)
    for (int i = 0; i < N; i++)
#pragma omp atomic
      hits[i]++;
  }
  errors += check ("static");

#pragma omp parallel
#pragma omp for schedule(static, 7)
  for (int i = 0; i < N; i++)
    {
#pragma omp atomic
      hits[i]++;
      owner[i] = omp_get_thread_num ();
    }
  errors += check ("static,7");
  for (int i = 0; i < N; i++)
    if (owner[i] != (i / 7) % nth)
      {
	fprintf (stderr, "static,7: iteration %d ran on %d\n", i, owner[i]);
	errors++;
	break;
      }

  /* runtime schedule from OMP_SCHEDULE=static,3, downward loop.  */
#pragma omp parallel for schedule(runtime)
  for (int i = N - 1; i >= 0; i--)
    {
#pragma omp atomic
      hits[i]++;
      owner[i] = omp_get_thread_num ();
    }
  errors += check ("runtime static,3");
  for (int i = N - 1; i >= 0; i--)
    if (owner[i] != ((N - 1 - i) / 3) % nth)
      {
	fprintf (stderr, "runtime: iteration %d ran on %d\n", i, owner[i]);
	errors++;
	break;
      }

  /* nowait loops back to back, with long long bounds and a step.  */
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (long long i = 0; i < 3LL * N; i += 3)
#pragma omp atomic
      hits[i / 3]++;
#pragma omp for schedule(static, 5) nowait
    for (unsigned long long i = 0; i < N; i++)
#pragma omp atomic
      hits[i]++;
  }
  for (int i = 0; i < N; i++)
    if (hits[i] != 2)
      {
	fprintf (stderr, "nowait loops: iteration %d ran %d times\n", i,
		 hits[i]);
	errors++;
	break;
      }
  return errors != 0;
}
