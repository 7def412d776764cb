/* Atomics and reductions of every type on one variable from every
   thread of every node.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>

#define ITERS 200
static int ai;
static long al;
static unsigned au;
static short as;
static char ac;
static float af;
static double ad;
static long long all;
static int amul = 1;
static long double ald;

int
main (void)
{
  int team = 0;
  int ri = 0, rmul = 1, rmax = -1, rmin = 1 << 30, rand_ = 1, ror = 0;
  int rbitand = ~0, rbitor = 0, rxor = 0;
  long rl = 0;
  unsigned long long rull = 0;
  float rf = 0;
  double rd = 0, rdmax = -1;
#pragma omp parallel reduction (+:ri, rl, rull, rf, rd) reduction (*:rmul) \
  reduction (max:rmax, rdmax) reduction (min:rmin) reduction (&&:rand_) \
  reduction (||:ror) reduction (&:rbitand) reduction (|:rbitor) \
  reduction (^:rxor)
  {
    int me = omp_get_thread_num ();
#pragma omp master
    team = omp_get_num_threads ();
    for (int i = 0; i < ITERS; i++)
      {
#pragma omp atomic
	ai++;
#pragma omp atomic
	al += 2;
#pragma omp atomic
	au += 3;
#pragma omp atomic
	as += 1;
#pragma omp atomic
	ac ^= 1;
#pragma omp atomic
	af += 0.5f;
#pragma omp atomic
	ad += 0.25;
#pragma omp atomic
	all += 5;
#pragma omp atomic
	ald += 1.0L;
      }
    if (me < 8)
      {
#pragma omp atomic
	amul *= 2;
      }
    ri += 1;
    rl += me;
    rull += 7;
    rf += 1.0f;
    rd += 0.5;
    rmul *= me < 8 ? 2 : 1;
    rmax = rmax > me ? rmax : me;
    rdmax = rdmax > me ? rdmax : me;
    rmin = rmin < me ? rmin : me;
    rand_ = rand_ && me >= 0;
    ror = ror || me == 0;
    rbitand &= ~(1 << (me % 16));
    rbitor |= 1 << (me % 16);
    rxor ^= 1 << (me % 16);
  }
  long n = team, it = ITERS;
  int bad = 0;
#define CHECK(cond, ...) \
  if (!(cond)) { printf (__VA_ARGS__); printf ("\n"); bad = 1; }
  CHECK (ai == n * it, "int atomic %d", ai);
  CHECK (al == 2 * n * it, "long atomic %ld", al);
  CHECK (au == 3 * n * it, "unsigned atomic %u", au);
  CHECK (as == (short) (n * it), "short atomic %d", as);
  CHECK (ac == ((n * it) & 1), "char atomic %d", ac);
  CHECK (af == 0.5f * n * it, "float atomic %g", af);
  CHECK (ad == 0.25 * n * it, "double atomic %g", ad);
  CHECK (all == 5 * n * it, "long long atomic %lld", all);
  CHECK (ald == (long double) (n * it), "long double atomic %Lg", ald);
  CHECK (amul == 1 << (n < 8 ? n : 8), "int atomic * %d", amul);
  CHECK (ri == n, "+ int %d", ri);
  CHECK (rl == n * (n - 1) / 2, "+ long %ld", rl);
  CHECK (rull == 7ULL * n, "+ ull %llu", rull);
  CHECK (rf == (float) n, "+ float %g", rf);
  CHECK (rd == 0.5 * n, "+ double %g", rd);
  CHECK (rmul == 1 << (n < 8 ? n : 8), "* int %d", rmul);
  CHECK (rmax == n - 1 && rdmax == n - 1, "max %d %g", rmax, rdmax);
  CHECK (rmin == 0, "min %d", rmin);
  CHECK (rand_ == 1 && ror == 1, "&& %d || %d", rand_, ror);
  int mask = 0, x = 0;
  for (int t = 0; t < n; t++)
    {
      mask |= 1 << (t % 16);
      x ^= 1 << (t % 16);
    }
  CHECK (rbitand == ~mask && rbitor == mask && rxor == x,
	 "& %#x | %#x ^ %#x", rbitand, rbitor, rxor);
  if (bad)
    return 1;
  printf ("OK %d threads\n", team);
  return 0;
}
