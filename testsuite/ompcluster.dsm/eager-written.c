/* The barrier's update in place of blocks a node wrote and others wrote
   too (OMPC_DSM_EAGER: they stay writable, their twins set to what the
   home sent).  Every thread writes its interleaved elements of X in
   every epoch, so that every page holds bytes of every node; after the
   barrier every thread reads all of X.  In every third epoch only the
   even threads write (the odd elements keep the epoch before's values:
   a twin left as it was before the update would make the next diff send
   the other nodes' older bytes back to the home, over their newer
   ones, once they wrote again: Z is written twice an epoch, before and
   after the barrier that updates it).  Y's pages are written by every node in alternate epochs only
   (a written block that the next release finds unchanged is not updated
   in place: it must be invalidated and fetched right).  A critical
   section between the writes and the barrier makes an acquire that is
   not a barrier's (no update in place there).  Every value is checked,
   every epoch.
   ompc-nodes: 1 2x1 2x2 3x1
   ompc-timeout: 180
   ompc-output: eager-written ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define PG 512			/* Doubles a page.  */
#define NX (24 * PG)
#define NY (16 * PG)
#define NZ (16 * PG)
#define ITERS 60

static double
val (int it, long i)
{
  return it * 1000003.0 + i * 2.0 + 0.5;
}

/* The epoch whose value element I of X holds after epoch IT: odd
   elements are not written in every third epoch.  With NT threads,
   element I belongs to thread I % NT.  */
static int
x_epoch (int it, long i, int nt)
{
  while (it % 3 == 2 && (i % nt) % 2 == 1)
    it--;
  return it;
}

int
main (void)
{
  double *x = malloc (NX * sizeof *x);
  double *y = malloc (NY * sizeof *y);
  double *z = malloc (NZ * sizeof *z);
  long bad = 0, count = 0;
  if (!x || !y || !z)
    return 2;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NX; i++)
    x[i] = -1.0;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NY; i++)
    y[i] = -1.0;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < NZ; i++)
    z[i] = -1.0;

  int nt = 1;
  for (int it = 0; it < ITERS; it++)
    {
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num ();
#pragma omp single
	nt = omp_get_num_threads ();
	if (it % 3 != 2 || t % 2 == 0)
	  for (long i = t; i < NX; i += nt)
	    x[i] = val (it, i);
	if (it % 2 == 0)
	  for (long i = t; i < NY; i += nt)
	    y[i] = val (it, i);
	for (long i = t; i < NZ; i += nt)
	  z[i] = val (2 * it, i);
#pragma omp critical
	count++;
#pragma omp barrier
	for (long k = 0; k < NX; k++)
	  {
	    long i = (k + (long) t * 4099) % NX;
	    if (x[i] != val (x_epoch (it, i, nt), i))
	      bad++;
	  }
	for (long i = 0; i < NY; i++)
	  if (y[i] != val (it - it % 2, i))
	    bad++;
	for (long i = t; i < NZ; i += nt)
	  z[i] = val (2 * it + 1, i);
	/* Nobody writes before everyone checked.  */
#pragma omp barrier
	for (long i = 0; i < NZ; i++)
	  if (z[i] != val (2 * it + 1, i))
	    bad++;
      }
    }
  if (bad || count != (long) ITERS * nt)
    {
      printf ("eager-written: %ld wrong values, count %ld\n", bad, count);
      return 1;
    }
  printf ("eager-written ok\n");
  free (x);
  free (y);
  free (z);
  return 0;
}
