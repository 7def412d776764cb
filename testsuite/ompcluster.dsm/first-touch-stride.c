/* First touches a fixed distance apart (home.c, strided first touches):
   each thread fills its part of the middle dimension of a global 3-D
   array, one block per row, k outermost inside: the blocks it touches
   first lie a plane (128 blocks) apart, and the parts are dealt in
   reverse so that another node manages them.  Each such touch asked
   the manager for a home (4096 round trips at 2 x 1); a stream along
   the stride now claims more and more of the blocks ahead with each
   lookup.  Every value is checked; no node may need 1000 lookups.
   ompc-nodes: 1x2 2x1 2x2 3x1
   ompc-env: OMPC_STATS=1
   ompc-output: stride first touch ok
   ompc-no-output: home lookups [0-9]{4,}  */

#include <omp.h>
#include <stdio.h>

#define NK 64
#define NJ 128
#define NI 512			/* One 4 KiB block per row.  */

static double g[NK][NJ][NI] __attribute__ ((aligned (4096)));

int
main (void)
{
  long bad = 0;
#pragma omp parallel
  {
    int nt = omp_get_num_threads ();
    int part = nt - 1 - omp_get_thread_num ();
    int lo = NJ * part / nt, hi = NJ * (part + 1) / nt;
    for (int j = lo; j < hi; j++)
      for (int k = 0; k < NK; k++)
	for (int i = 0; i < NI; i++)
	  g[k][j][i] = k * 1000.0 + j + i * 1e-3;
  }
#pragma omp parallel for reduction(+:bad) schedule(static)
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      for (int i = 0; i < NI; i++)
	if (g[k][j][i] != k * 1000.0 + j + i * 1e-3)
	  bad++;
  if (bad)
    {
      printf ("stride first touch: %ld wrong values\n", bad);
      return 1;
    }
  printf ("stride first touch ok\n");
  return 0;
}
