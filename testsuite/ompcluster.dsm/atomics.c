/* omp atomic and reductions of every type on one variable from every
   thread of every node.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: atomics ok  */

#include <omp.h>
#include <stdio.h>

#define K 200

static int ci;
static long cl;
static short cs;
static unsigned char cc;
static float cf;
static double cd;
static long long cmul = 1;
static int cmax;

int
main (void)
{
  int n = 0;
  long red = 0;
  double dred = 0;
  int imax = 0;
#pragma omp parallel reduction(+:red, dred) reduction(max:imax)
  {
    int t = omp_get_thread_num ();
#pragma omp single
    n = omp_get_num_threads ();
    for (int k = 0; k < K; k++)
      {
#pragma omp atomic
	ci++;
#pragma omp atomic
	cl += 2;
#pragma omp atomic
	cs += 1;
#pragma omp atomic
	cc ^= 1;
#pragma omp atomic
	cf += 0.5f;
#pragma omp atomic
	cd += 0.25;
	red += k;
	dred += 0.5;
      }
    if (t < 20)
      {
#pragma omp atomic
	cmul *= 2;
      }
    int v;
#pragma omp atomic capture
    v = cmax++;
    if (v + 1 > imax)
      imax = v + 1;
  }
  int bad = ci != n * K || cl != 2L * n * K || cs != (short) (n * K)
    || cc != ((n * K) & 1) || cf != 0.5f * n * K || cd != 0.25 * n * K
    || red != (long) n * K * (K - 1) / 2 || dred != 0.5 * n * K
    || imax != n || cmax != n || cmul != 1LL << (n < 20 ? n : 20);
  if (bad)
    {
      printf ("n %d: ci %d cl %ld cs %d cc %d cf %g cd %g red %ld dred %g "
	      "imax %d cmax %d cmul %lld\n", n, ci, cl, cs, cc, cf, cd, red,
	      dred, imax, cmax, cmul);
      return 1;
    }
  printf ("atomics ok (%d threads)\n", n);
  return 0;
}
