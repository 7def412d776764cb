/* schedule(nonmonotonic: dynamic) loops, which on one node take their
   chunks from per-thread blocks and steal from each other (iter.c): every
   iteration runs exactly once and every chunk but the last has CHUNK
   iterations, for empty, tiny and uneven loops, upward and downward with
   steps, uneven work (threads steal), nowait loops going round the
   work-share ring, the combined construct, and teams of 1 to 4 threads
   (more threads than processors included); lastprivate and linear get
   the last iteration's values (GCC lets the thread that ran the last
   chunk copy them out: it must take no chunk after it).  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-timeout: 120 */

#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 20000
static int hits[N];
static int errors;
static volatile int sink;

static void
check (const char *what, long n, int chunk, int threads, int want)
{
  for (long i = 0; i < n; i++)
    if (hits[i] != want)
      {
	printf ("%s: n %ld chunk %d threads %d: iteration %ld ran %d times, "
		"not %d\n", what, n, chunk, threads, i, hits[i], want);
	errors++;
	return;
      }
}

/* A chunk's iterations run on one thread, consecutively: every chunk but
   the one holding the last iteration has CHUNK of them.  */
static void
check_chunks (long n, int chunk, int threads, const int *owner)
{
  for (long c = 0; c * chunk < n; c++)
    for (long i = c * chunk; i < (c + 1) * chunk && i < n; i++)
      if (owner[i] != owner[c * chunk])
	{
	  printf ("chunks: n %ld chunk %d threads %d: chunk %ld split between "
		  "threads %d and %d\n", n, chunk, threads, c,
		  owner[c * chunk], owner[i]);
	  errors++;
	  return;
	}
}

static int owner[N];

int
main (void)
{
  static const long sizes[] = { 0, 1, 2, 3, 7, 64, 100, 1000, 4097, N };
  static const int chunks[] = { 1, 2, 3, 8, 64, 1000 };
  for (int t = 1; t <= 4; t++)
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (unsigned k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
	{
	  long n = sizes[s];
	  int c = chunks[k];

	  /* Uneven work: early iterations are slow, so threads steal.  */
	  memset (hits, 0, sizeof hits);
#pragma omp parallel for num_threads (t) schedule (nonmonotonic: dynamic, c)
	  for (long i = 0; i < n; i++)
	    {
	      __atomic_fetch_add (&hits[i], 1, __ATOMIC_RELAXED);
	      owner[i] = omp_get_thread_num ();
	      if (i < n / 4)
		for (int w = 0; w < 200; w++)
		  sink++;
	    }
	  check ("upward", n, c, t, 1);
	  check_chunks (n, c, t, owner);

	  /* lastprivate and linear: slow early iterations make the thread
	     that owns the last block finish first and steal.  */
	  long last = -1, lin = 5;
#pragma omp parallel for num_threads (t) schedule (nonmonotonic: dynamic, c) \
	    lastprivate (last) linear (lin: 2)
	  for (long i = 0; i < n; i++)
	    {
	      last = i;
	      lin += 2;
	      if (i < n / 2)
		for (int w = 0; w < 100; w++)
		  sink++;
	    }
	  if (n > 0 && (last != n - 1 || lin != 5 + 2 * n))
	    {
	      printf ("lastprivate/linear: n %ld chunk %d threads %d: last %ld "
		      "(want %ld), linear %ld (want %ld)\n", n, c, t, last,
		      n - 1, lin, 5 + 2 * n);
	      errors++;
	    }

	  /* Downward with a step of 3, then nowait loops back to back (more
	     than the ring's slots, so slots are reused while threads
	     still steal in the previous loops).  */
	  memset (hits, 0, sizeof hits);
#pragma omp parallel num_threads (t)
	  {
#pragma omp for schedule (nonmonotonic: dynamic, c) nowait
	    for (long i = n - 1; i >= 0; i -= 3)
	      __atomic_fetch_add (&hits[i], 1, __ATOMIC_RELAXED);
	    for (int r = 0; r < 20; r++)
	      {
#pragma omp for schedule (dynamic, c) nowait
		for (long i = 0; i < n; i++)
		  __atomic_fetch_add (&hits[i], 2, __ATOMIC_RELAXED);
	      }
	  }
	  for (long i = 0; i < n; i++)
	    hits[i] -= (n - 1 - i) % 3 == 0;
	  check ("downward and nowait", n, c, t, 40);
	}
  if (errors)
    return 1;
  puts ("ok");
  return 0;
}
