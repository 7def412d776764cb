/* Loops with every schedule: dynamic and guided (with and without chunk),
   runtime (set by omp_set_schedule), auto, nonmonotonic, monotonic,
   upward and downward with steps, long long and unsigned long long
   iteration variables, collapse(2), nowait loops back to back,
   lastprivate(conditional) (GOMP_loop_start's MEM) and ordered loops
   with dynamic and guided schedules: each iteration runs exactly once,
   and ordered regions run in iteration order.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x3 1x4 */
/* ompc-timeout: 120 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 2000
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
#pragma omp for schedule(dynamic, 7)
    for (int i = N - 1; i >= 0; i--)
      HIT (i);
#pragma omp for schedule(guided)
    for (int i = 0; i < 2 * N; i += 2)
      HIT (i / 2);
#pragma omp for schedule(guided, 5)
    for (long long i = 3LL * N - 1; i >= 0; i -= 3)
      HIT (i / 3);
#pragma omp for schedule(nonmonotonic: dynamic, 3)
    for (int i = 0; i < N; i++)
      HIT (i);
#pragma omp for schedule(monotonic: dynamic, 3)
    for (int i = 0; i < N; i++)
      HIT (i);
#pragma omp for schedule(auto)
    for (int i = 0; i < N; i++)
      HIT (i);
  }
  check ("dynamic/guided/auto", 7);

  static const omp_sched_t kinds[] = { omp_sched_static, omp_sched_dynamic,
				       omp_sched_guided, omp_sched_auto };
  for (int k = 0; k < 4; k++)
    for (int chunk = 0; chunk < 10; chunk += 3)
      {
	omp_set_schedule (kinds[k], chunk);
	omp_sched_t got;
	int gchunk;
	omp_get_schedule (&got, &gchunk);
	if (got != kinds[k])
	  {
	    fprintf (stderr, "omp_get_schedule: %d, expected %d\n", got,
		     kinds[k]);
	    errors++;
	  }
#pragma omp parallel for schedule(runtime)
	for (int i = 0; i < N; i++)
	  HIT (i);
#pragma omp parallel
	{
#pragma omp for schedule(runtime) nowait
	  for (unsigned long long i = 0; i < N; i++)
	    HIT (i);
#pragma omp for schedule(runtime) nowait
	  for (int i = N; i > 0; i -= 1)
	    HIT (i - 1);
	}
      }
  check ("runtime", 3 * 4 * 4);

#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 4) nowait
    for (unsigned long long i = 0; i < 20ULL * N; i += 20)
      HIT (i / 20);
#pragma omp for schedule(guided) nowait
    for (unsigned long long i = N; i > 0; i--)
      HIT (i - 1);
#pragma omp for collapse(2) schedule(dynamic, 3)
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < N / 40; j++)
	HIT (i * (N / 40) + j);
#pragma omp for collapse(2) schedule(guided)
    for (unsigned i = 0; i < 40; i++)
      for (long j = 0; j < N / 40; j++)
	HIT (i * (N / 40) + j);
  }
  check ("ull/collapse", 4);

  /* lastprivate(conditional): the value of the last iteration that
     assigned it.  */
  int last = -1;
#pragma omp parallel for schedule(dynamic, 3) lastprivate(conditional: last)
  for (int i = 0; i < N; i++)
    if (i % 7 == 0)
      last = i;
  if (last != (N - 1) / 7 * 7)
    {
      fprintf (stderr, "lastprivate(conditional): %d\n", last);
      errors++;
    }

  /* Ordered with dynamic and guided chunks.  */
  for (int k = 0; k < 3; k++)
    {
      int next = 0, bad = 0;
      if (k == 0)
	{
#pragma omp parallel for ordered schedule(dynamic, 3)
	  for (int i = 0; i < N; i++)
	    {
	      HIT (i);
#pragma omp ordered
	      bad += next++ != i;
	    }
	}
      else if (k == 1)
	{
#pragma omp parallel for ordered schedule(guided)
	  for (int i = 0; i < N; i++)
	    {
	      HIT (i);
	      if (i % 2)
		continue;	/* not every iteration has an ordered part */
#pragma omp ordered
	      {
		bad += next != i;
		next = i + 2;
	      }
	    }
	}
      else
	{
#pragma omp parallel for ordered schedule(runtime)
	  for (unsigned long long i = 0; i < N; i++)
	    {
	      HIT (i);
#pragma omp ordered
	      bad += (unsigned long long) next++ != i;
	    }
	}
      if (bad)
	{
	  fprintf (stderr, "ordered %d: %d out of order\n", k, bad);
	  errors++;
	}
    }
  check ("ordered", 3);
  return errors != 0;
}
