/* Dynamic, guided and runtime loops with unsigned long long iteration
   variables whose bounds and steps lie beyond LONG_MAX, upwards and
   downwards, plain and ordered: every iteration runs exactly once, the
   ordered ones in order.  Across nodes the loop counter hands out
   iteration numbers, so the values may be anything.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-env: OMP_SCHEDULE=guided,3 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <limits.h>

#define N 1000
static int hits[N];
static unsigned long long last;
static int order_bad;

static int
check (const char *what)
{
  int bad = 0;
  for (int i = 0; i < N; i++)
    {
      if (hits[i] != 1)
	bad++;
      hits[i] = 0;
    }
  if (bad)
    printf ("%s: %d iterations not run exactly once\n", what, bad);
  return bad != 0;
}

int
main (void)
{
  const unsigned long long base = ULLONG_MAX - 7ULL * N;	/* > LONG_MAX */
  const unsigned long long big = (unsigned long long) LONG_MAX + 5;
  int fails = 0;

#pragma omp parallel for schedule(dynamic, 7)
  for (unsigned long long i = base; i < base + 7ULL * N; i += 7)
    __atomic_fetch_add (&hits[(i - base) / 7], 1, __ATOMIC_RELAXED);
  fails += check ("dynamic up");

#pragma omp parallel for schedule(guided, 2)
  for (unsigned long long i = base + 7ULL * N - 1; i >= base;
       i -= 7)
    __atomic_fetch_add (&hits[(base + 7ULL * N - 1 - i) / 7], 1,
			__ATOMIC_RELAXED);
  fails += check ("guided down");

  /* Large steps: four iterations.  */
#pragma omp parallel for schedule(dynamic)
  for (unsigned long long i = 1ULL << 63; i < (1ULL << 63) + (4ULL << 60);
       i += 1ULL << 60)
    __atomic_fetch_add (&hits[(i - (1ULL << 63)) >> 60], 1,
			__ATOMIC_RELAXED);
  for (int i = 4; i < N; i++)
    hits[i] = 1;
  fails += check ("dynamic, large steps");

#pragma omp parallel for schedule(runtime)
  for (unsigned long long i = big; i < big + N; i++)
    __atomic_fetch_add (&hits[i - big], 1, __ATOMIC_RELAXED);
  fails += check ("runtime (guided,3)");

  last = base - 1;
#pragma omp parallel for ordered schedule(dynamic, 5)
  for (unsigned long long i = base; i < base + N; i++)
    {
      __atomic_fetch_add (&hits[i - base], 1, __ATOMIC_RELAXED);
#pragma omp ordered
      {
	if (i != last + 1)
	  order_bad++;
	last = i;
      }
    }
  fails += check ("ordered dynamic");
  if (order_bad)
    {
      printf ("ordered dynamic: %d iterations out of order\n", order_bad);
      fails++;
    }
  if (fails)
    return 1;
  printf ("OK\n");
  return 0;
}
