/* Loops that GCC parallelizes itself (-ftree-parallelize-loops): the
   reductions' merges, which GCC creates after the plugin's first pass
   (a CAS loop for double and max, fetch-and-add and fetch-and-xor for
   unsigned integers), must reach
   the runtime across nodes like any OpenMP atomic, or one node's part is
   lost.  Every value is an integer, so the sums are exact in any order.
   The check: the outlined loop bodies (*._loopfn.N) hold atomics, each
   with the cluster path beside it.
   ompc-nodes: 1 1x2 2x1 2x2
   ompc-options: -O2 -ftree-parallelize-loops=2 -ffast-math
   ompc-check: sh "$(dirname %src)/aux/atomics-check.sh" guarded-need %exe '[a-z_]+\._loopfn[.0-9]+'
   ompc-timeout: 60  */

#include <stdio.h>

#define N 4096
#define M (1 << 20)
#define ROUNDS 40

double d[N], e[N];
int f[N], g[N], h[N];

static double __attribute__ ((noinline))
dot (void)
{
  double s = 0.0;
  for (int i = 0; i < N; i++)
    s += d[i] * e[i];
  return s;
}

/* Long loops without memory traffic (a division by K on every
   iteration), so that both nodes hold the reduction's page while the
   other adds its part: the merges' race is then sure to show.  */
static double __attribute__ ((noinline))
slow_sum (int k)
{
  double s = 0.0;
  for (int i = 0; i < M; i++)
    s += i / k % 16;
  return s;
}

static unsigned __attribute__ ((noinline))
slow_count (unsigned k)
{
  unsigned c = 0;
  for (unsigned i = 0; i < M; i++)
    c += i / k % 3;
  return c;
}

/* GCC parallelizes integer sums only when they cannot overflow: unsigned.  */
static unsigned __attribute__ ((noinline))
diff_sum (void)
{
  unsigned s = 0;
  for (int i = 0; i < N; i++)
    s += f[i] - g[i];
  return s;
}

static unsigned long __attribute__ ((noinline))
xor_of (void)
{
  unsigned long x = 0;
  for (int i = 0; i < N; i++)
    x ^= (unsigned long) f[i] << (i % 40);
  return x;
}

static int __attribute__ ((noinline))
max_of (void)
{
  int m = -1;
  for (int i = 0; i < N; i++)
    m = f[i] > m ? f[i] : m;
  return m;
}

static void __attribute__ ((noinline))
add (void)
{
  for (int i = 0; i < N; i++)
    h[i] = f[i] + g[i];
}

int
main (void)
{
  int errors = 0;
  for (int k = 3; k <= 5; k++)
    {
      volatile double want_sum = 0.0;
      volatile unsigned want_count = 0;
      for (int i = 0; i < M; i++)
	{
	  want_sum += i / k % 16;
	  want_count += (unsigned) i / k % 3;
	}
      double s = slow_sum (k);
      unsigned c = slow_count (k);
      if (s != want_sum)
	printf ("k %d: slow_sum %.0f, want %.0f\n", k, s, want_sum), errors++;
      if (c != want_count)
	printf ("k %d: slow_count %u, want %u\n", k, c, want_count), errors++;
    }
  for (int r = 1; r <= ROUNDS; r++)
    {
      for (int i = 0; i < N; i++)
	{
	  d[i] = i % 7 + r;
	  e[i] = 2;
	  f[i] = (i * 13 + r) % N;
	  g[i] = i % 5;
	}
      /* The reference, kept serial by its volatile accumulators.  */
      volatile double want_dot = 0.0;
      volatile unsigned want_diff = 0;
      volatile unsigned long want_xor = 0;
      volatile int want_max = -1;
      for (int i = 0; i < N; i++)
	{
	  want_dot += (i % 7 + r) * 2.0;
	  want_diff += (i * 13 + r) % N - i % 5;
	  want_xor ^= (unsigned long) ((i * 13 + r) % N) << (i % 40);
	  if ((i * 13 + r) % N > want_max)
	    want_max = (i * 13 + r) % N;
	}
      double s = dot ();
      unsigned t = diff_sum ();
      unsigned long x = xor_of ();
      int m = max_of ();
      add ();
      if (s != want_dot)
	printf ("round %d: dot %.0f, want %.0f\n", r, s, want_dot), errors++;
      if (t != want_diff)
	printf ("round %d: diff_sum %u, want %u\n", r, t, want_diff), errors++;
      if (x != want_xor)
	printf ("round %d: xor %#lx, want %#lx\n", r, x, want_xor), errors++;
      if (m != want_max)
	printf ("round %d: max %d, want %d\n", r, m, want_max), errors++;
      for (int i = 0; i < N; i++)
	if (h[i] != f[i] + g[i])
	  {
	    printf ("round %d: h[%d] %d, want %d\n", r, i, h[i], f[i] + g[i]);
	    errors++;
	    break;
	  }
    }
  if (errors)
    return 1;
  puts ("OK");
  return 0;
}
