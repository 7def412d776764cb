/* omp atomic (update, read, write, capture, compare) for every type GCC
   treats differently, reductions of every operator, critical and
   critical(NAME): the results equal a plain gcc -fopenmp build, and every
   lock-prefixed instruction left in the OpenMP code sits beside the
   runtime call that replaces it with several nodes.
   ompc-nodes: 1 1x1 1x2 1x3 2x1 2x2 3x1
   ompc-check: sh "$(dirname %src)/aux/atomics-check.sh" guarded-need %exe 'main|__ompc_user_main|main\._omp_fn\.[0-9]+'
   ompc-timeout: 60  */

#include <omp.h>
#include <stdio.h>

static int errors;
#define CHECK(cond)							\
  do { if (!(cond)) { printf ("line %d: %s\n", __LINE__, #cond);	\
		      errors++; } } while (0)

int ai, am = 1, cap_sum;
short as;
signed char ac;
long al, aor, aand = -1, axor;
long long all_;
unsigned long aul;
float af;
double ad, amul = 1.0;
long double ald;
int amax = -1000, amin = 1000;

int
main (void)
{
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n++;
  int fact = 1;
  for (int i = 1; i <= n; i++)
    fact *= i;

#pragma omp parallel
  {
    int id = omp_get_thread_num () + 1, v;
#pragma omp atomic
    ai += id;
#pragma omp atomic
    am *= id;
#pragma omp atomic
    as += id;
#pragma omp atomic
    ac += 1;
#pragma omp atomic
    al -= id;
#pragma omp atomic
    aor |= 1L << id;
#pragma omp atomic
    aand &= ~(1L << id);
#pragma omp atomic
    axor ^= 1L << id;
#pragma omp atomic
    all_ += 1LL << 40;
#pragma omp atomic
    aul += id;
#pragma omp atomic
    af += 0.5f;
#pragma omp atomic
    ad += 0.25;
#pragma omp atomic
    amul *= 2.0;
#pragma omp atomic
    ald += 1.0L;
#pragma omp atomic compare
    if (amax < id) { amax = id; }
#pragma omp atomic compare
    if (amin > id) { amin = id; }
#pragma omp atomic capture
    v = cap_sum += id;
    if (v < id)
      __atomic_fetch_add (&errors, 1, __ATOMIC_RELAXED);
#pragma omp atomic capture seq_cst
    { v = ai; ai += 0; }
#pragma omp atomic write
    ai = ai;
#pragma omp atomic read
    v = am;
    (void) v;
  }
  int tri = n * (n + 1) / 2;
  long bits = 0;
  for (int i = 1; i <= n; i++)
    bits |= 1L << i;
  CHECK (ai == tri);
  CHECK (am == fact);
  CHECK (as == tri);
  CHECK (ac == n);
  CHECK (al == -tri);
  CHECK (aor == bits);
  CHECK (aand == ~bits);
  CHECK (axor == bits);
  CHECK (all_ == (long long) n << 40);
  CHECK (aul == (unsigned long) tri);
  CHECK (af == 0.5f * n);
  CHECK (ad == 0.25 * n);
  CHECK (amul == (double) (1L << n));
  CHECK (ald == (long double) n);
  CHECK (amax == n && amin == 1);
  CHECK (cap_sum == tri);

  /* Reductions: one variable each (atomic merges), then several at once
     (GOMP_atomic_start), over every operator and type.  */
  int rs = 0, rp = 1, rmx = -1, rmn = 1 << 30, rand_ = 1, ror = 0, rbit = ~0,
      rbor = 0, rbx = 0;
  long rl = 0;
  float rf = 0;
  double rd = 0, rdm = 1;
#pragma omp parallel for reduction(+ : rs)
  for (int i = 1; i <= 100; i++)
    rs += i;
#pragma omp parallel for reduction(* : rp)
  for (int i = 1; i <= 10; i++)
    rp *= i;
#pragma omp parallel for reduction(max : rmx)
  for (int i = 1; i <= 100; i++)
    rmx = i > rmx ? i : rmx;
#pragma omp parallel for reduction(min : rmn)
  for (int i = 1; i <= 100; i++)
    rmn = i < rmn ? i : rmn;
#pragma omp parallel for reduction(&& : rand_)
  for (int i = 1; i <= 100; i++)
    rand_ = rand_ && i;
#pragma omp parallel for reduction(|| : ror)
  for (int i = 1; i <= 100; i++)
    ror = ror || i == 50;
#pragma omp parallel for reduction(& : rbit)
  for (int i = 0; i < 8; i++)
    rbit &= ~(1 << i);
#pragma omp parallel for reduction(| : rbor)
  for (int i = 0; i < 8; i++)
    rbor |= 1 << i;
#pragma omp parallel for reduction(^ : rbx)
  for (int i = 0; i < 8; i++)
    rbx ^= 1 << i;
#pragma omp parallel for reduction(+ : rl)
  for (long i = 1; i <= 100000; i++)
    rl += i;
#pragma omp parallel for reduction(+ : rf)
  for (int i = 0; i < 64; i++)
    rf += 0.5f;
#pragma omp parallel for reduction(+ : rd) reduction(* : rdm)
  for (int i = 0; i < 20; i++)
    {
      rd += 0.125;
      rdm *= 2.0;
    }
  CHECK (rs == 5050);
  CHECK (rp == 3628800);
  CHECK (rmx == 100 && rmn == 1);
  CHECK (rand_ == 1 && ror == 1);
  CHECK (rbit == ~0xff && rbor == 0xff && rbx == 0xff);
  CHECK (rl == 5000050000L);
  CHECK (rf == 32.0f);
  CHECK (rd == 2.5 && rdm == 1048576.0);

  int crit = 0, crit_named = 0;
#pragma omp parallel for
  for (int i = 0; i < 1000; i++)
    {
#pragma omp critical
      crit++;
#pragma omp critical(other)
      crit_named += 2;
    }
  CHECK (crit == 1000 && crit_named == 2000);

  if (errors)
    printf ("%d errors with %d threads\n", errors, n);
  return errors != 0;
}
