/* The barrier's update in place of pages a node keeps reading
   (OMPC_DSM_EAGER) and what it must never get wrong.  Every epoch each
   thread rewrites its static part of A, C and D, then every thread reads
   all of A (pages re-read every epoch while the other nodes change them:
   updated in place once faults showed them used), D only in some epochs
   (pages that stop being read must fall back to invalidation, then come
   back), and C, whose pages every node also writes in some epochs
   (interleaved elements: a page updated in place by one barrier and
   written here after it, while the other nodes write its other bytes).
   Every value read is checked, every epoch.  eager-used.c runs this with
   OMPC_STATS to see updates in place happen, eager-off.c with them off.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: eager ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define PG 512			/* Doubles a page.  */
#define NA (48 * PG)
#define NC (32 * PG)
#define ND (32 * PG)
#define ITERS 48

static double
val (int it, long i, int which)
{
  return it * 1000003.0 + i * 4.0 + which;
}

int
main (void)
{
  double *a = malloc (NA * sizeof *a);
  double *c = malloc (NC * sizeof *c);
  double *d = malloc (ND * sizeof *d);
  long bad = 0;
  if (!a || !c || !d)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NA; i++)
    a[i] = -1.0;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NC; i++)
    c[i] = -1.0;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < ND; i++)
    d[i] = -1.0;

  for (int it = 0; it < ITERS; it++)
    {
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
#pragma omp for schedule(static)
	for (long i = 0; i < NA; i++)
	  a[i] = val (it, i, 0);
#pragma omp for schedule(static)
	for (long i = 0; i < NC; i++)
	  c[i] = val (it, i, 1);
#pragma omp for schedule(static)
	for (long i = 0; i < ND; i++)
	  d[i] = val (it, i, 2);
	/* The implicit barrier above updates or invalidates what the
	   others wrote.  Everything is read, in an order of its own per
	   thread.  */
	for (long k = 0; k < NA; k++)
	  {
	    long i = (k + (long) t * 4099) % NA;
	    if (a[i] != val (it, i, 0))
	      bad++;
	  }
	for (long i = 0; i < NC; i++)
	  if (c[i] != val (it, i, 1))
	    bad++;
	/* D: read for 5 epochs, then left alone for 5 (its pages must
	   stop being updated, and come back right).  */
	if ((it / 5) % 2 == 0)
	  for (long i = 0; i < ND; i++)
	    if (d[i] != val (it, i, 2))
	      bad++;
#pragma omp barrier
	/* Every 4th epoch every thread writes its interleaved elements of
	   C (each page gets bytes of every node), the pages having been
	   updated in place by the last barrier; the written pages stay
	   writable a few releases, then are read-only again before the
	   next time.  */
	if (it % 4 == 3)
	  {
	    for (long i = t; i < NC; i += nt)
	      c[i] = val (it + 1000, i, 3);
#pragma omp barrier
	    for (long i = 0; i < NC; i++)
	      if (c[i] != val (it + 1000, i, 3))
		bad++;
	  }
	/* Nobody rewrites C before everyone checked it.  */
#pragma omp barrier
      }
    }
  if (bad)
    {
      printf ("eager: %ld wrong values\n", bad);
      return 1;
    }
  printf ("eager ok\n");
  free (a);
  free (c);
  free (d);
  return 0;
}
