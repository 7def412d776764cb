/* Threads far apart in a run of nowait work-sharing constructs.  In each
   region the thread that gets the first iteration of the first loop waits
   there until another thread has gone through all the constructs after it
   (loops of every schedule, sections, single), so no thread may have to
   wait for a slower one to start or finish a construct.  Then rounds of
   the same constructs with threads delayed at random.  Every iteration,
   section and single runs exactly once.  */
/* ompc-nodes: 1 1x2 1x3 2x1 2x2 */
/* ompc-env: OMP_SCHEDULE=dynamic,2 */
/* ompc-timeout: 90 */

#include <omp.h>
#include <stdio.h>
#include <time.h>

#define N 24		/* iterations of each loop */
#define K 7		/* kinds of construct below */
#define REPS 6		/* runs of the K kinds in a region */
#define NC (K * REPS)	/* constructs of a region */

static int hits[NC][N];
static int ahead;

static void
delay (unsigned *seed)
{
  *seed = *seed * 1103515245u + 12345u;
  unsigned r = (*seed >> 16) % 8;
  if (r < 3)
    {
      struct timespec ts = { 0, (long) r * 40000 };
      nanosleep (&ts, NULL);
    }
}

/* Construct C of a region, of kind C % K.  */
static void
construct (int c, unsigned *seed, int random)
{
  int *h = hits[c];
  switch (c % K)
    {
    case 0:
#pragma omp for schedule(dynamic, 1) nowait
      for (int i = 0; i < N; i++)
	{
	  h[i]++;
	  if (random)
	    delay (seed);
	}
      break;
    case 1:
#pragma omp for schedule(guided, 2) nowait
      for (int i = 0; i < N; i++)
	h[i]++;
      break;
    case 2:
#pragma omp for schedule(runtime) nowait
      for (unsigned long long i = 0; i < N; i++)
	h[i]++;
      break;
    case 3:
#pragma omp for schedule(static, 3) nowait
      for (int i = 0; i < N; i++)
	h[i]++;
      break;
    case 4:
#pragma omp sections nowait
      {
#pragma omp section
	for (int i = 0; i < N / 2; i++)
	  h[i]++;
#pragma omp section
	for (int i = N / 2; i < N; i++)
	  h[i]++;
#pragma omp section
	if (random)
	  delay (seed);
      }
      break;
    case 5:
#pragma omp single nowait
      for (int i = 0; i < N; i++)
	h[i]++;
      break;
    case 6:
#pragma omp for schedule(nonmonotonic: dynamic, 5) nowait
      for (long i = N - 1; i >= 0; i--)
	h[i]++;
      break;
    }
  if (random)
    delay (seed);
}

static int
check (int rounds, const char *what)
{
  for (int c = 0; c < NC; c++)
    for (int i = 0; i < N; i++)
      if (hits[c][i] != rounds)
	{
	  printf ("%s: construct %d, iteration %d ran %d times, not %d\n",
		  what, c, i, hits[c][i], rounds);
	  return 1;
	}
  return 0;
}

int
main (void)
{
  /* One thread held in the first construct until another is past the
     last one.  */
  for (int round = 0; round < 3; round++)
    {
      int zero = 0;
#pragma omp atomic write seq_cst
      ahead = zero;
#pragma omp parallel
      {
	int nt = omp_get_num_threads ();
#pragma omp for schedule(dynamic, 1) nowait
	for (int i = 0; i < N; i++)
	  {
	    hits[0][i]++;
	    if (i == 0 && nt > 1)
	      for (;;)
		{
		  int a;
#pragma omp atomic read seq_cst
		  a = ahead;
		  if (a)
		    break;
		  struct timespec ts = { 0, 20000 };
		  nanosleep (&ts, NULL);
		}
	  }
	for (int c = 1; c < NC; c++)
	  construct (c, NULL, 0);
	int one = 1;
#pragma omp atomic write seq_cst
	ahead = one;
      }
    }
  if (check (3, "one thread held back"))
    return 1;

  /* Every thread delayed at random, in several regions.  */
  for (int c = 0; c < NC; c++)
    for (int i = 0; i < N; i++)
      hits[c][i] = 0;
  for (int round = 0; round < 4; round++)
#pragma omp parallel
    {
      unsigned seed = 77u * (unsigned) round + 31u * omp_get_thread_num ();
      for (int c = 0; c < NC; c++)
	construct (c, &seed, 1);
    }
  if (check (4, "random delays"))
    return 1;
  puts ("ok");
  return 0;
}
