/* Dynamic, guided, runtime and auto schedules of long and unsigned long
   long loops, within and across nodes (each node takes chunks from the
   loop's global counter):
   every iteration runs exactly once, and every thread can get work.  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 120 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 3000
static int hits[N];
static int errors;

static void
check (const char *what, int times)
{
  for (int i = 0; i < N; i++)
    if (hits[i] != times)
      {
	fprintf (stderr, "%s: iteration %d ran %d times\n", what, i, hits[i]);
	errors++;
	break;
      }
  memset (hits, 0, sizeof hits);
}

#define HIT(i) __atomic_add_fetch (&hits[i], 1, __ATOMIC_RELAXED)

int
main (void)
{
#pragma omp parallel
  {
#pragma omp for schedule(dynamic)
    for (int i = 0; i < N; i++)
      HIT (i);
#pragma omp for schedule(dynamic, 7) nowait
    for (long i = N - 1; i >= 0; i--)
      HIT (i);
#pragma omp for schedule(guided)
    for (int i = 0; i < 2 * N; i += 2)
      HIT (i / 2);
#pragma omp for schedule(guided, 5)
    for (long i = 3L * N - 1; i >= 0; i -= 3)
      HIT (i / 3);
#pragma omp for schedule(nonmonotonic: dynamic, 3)
    for (int i = 0; i < N; i++)
      HIT (i);
#pragma omp for schedule(auto)
    for (int i = 0; i < N; i++)
      HIT (i);
    /* size_t-like loops: GCC uses the unsigned long long entry points.  */
#pragma omp for schedule(dynamic, 5)
    for (unsigned long i = 0; i < N; i++)
      HIT (i);
#pragma omp for schedule(guided)
    for (unsigned long long i = 2ULL * N; i > 0; i -= 2)
      HIT (i / 2 - 1);
  }
  check ("dynamic/guided/auto", 8);

  static const omp_sched_t kinds[] = { omp_sched_static, omp_sched_dynamic,
				       omp_sched_guided, omp_sched_auto };
  for (int k = 0; k < 4; k++)
    {
      omp_set_schedule (kinds[k], k + 1);
#pragma omp parallel for schedule(runtime)
      for (int i = 0; i < N; i++)
	HIT (i);
#pragma omp parallel
      {
#pragma omp for schedule(runtime)
	for (long i = 0; i < N; i++)
	  HIT (i);
      }
    }
  check ("runtime", 8);

  /* Work is shared: with many slow-ish iterations every thread gets some.
     An iteration lasts 1 ms of wall-clock time, not a count of additions:
     at 3x1 on 2 cores a node's process can sit unscheduled for tens of
     milliseconds, and 6 ms of additions in all let the first node take
     every chunk before the others' first request reached it.  */
  int got[64] = { 0 }, nth = 1;
#pragma omp parallel
  {
#pragma omp single
    nth = omp_get_num_threads ();
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 64 * nth; i++)
      {
	double until = omp_get_wtime () + 1e-3;
	while (omp_get_wtime () < until)
	  ;
	got[omp_get_thread_num ()] = 1;
      }
  }
  int idle = 0;
  for (int t = 0; t < nth && t < 64; t++)
    idle += !got[t];
  if (idle > nth / 2)
    {
      fprintf (stderr, "%d of %d threads got no iteration\n", idle, nth);
      errors++;
    }
  return errors != 0;
}
