/* Large data under -mcmodel=medium (.lbss, .ldata: GCC's sections for
   variables above -mlarge-data-threshold, addressed with 64-bit offsets)
   is shared like the other globals: a 64 MiB zero array and a 16 KiB
   initialised one, between small shared globals.  Every thread of every
   node writes its part of the big array; after the loop's barrier every
   thread checks elements written on the other nodes, and the sum is the
   one a plain build gives.  The ompc-check makes sure the arrays really
   are large data inside the shared region.  */
/* ompc-nodes: 1 1x2 2x1 */
/* ompc-options: -O2 -mcmodel=medium -mlarge-data-threshold=4096 */
/* ompc-check: readelf -SW %exe | grep -E '\.ompc_shared_lbss +NOBITS .* WAl ' */
/* ompc-check: readelf -SW %exe | grep -E '\.ompc_shared_ldata +PROGBITS .* WAl ' */
/* ompc-check: test "$(objdump -t %exe | awk '$NF == "big" {print $4}')" = .ompc_shared_lbss */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

#define N (8L << 20)			/* 64 MiB of doubles */

extern char __ompc_shared_start[] __attribute__ ((weak));
extern char __ompc_shared_end[] __attribute__ ((weak));

int before = 1;				/* small, initialised */
double big[N];				/* large, zero: .lbss */
long table[2048] = { 3, 5, 7 };		/* large, initialised: .ldata */
int after;				/* small, zero */

static int
inside (const void *p)
{
  return (const char *) p >= __ompc_shared_start
    && (const char *) p < __ompc_shared_end;
}

int
main (void)
{
  int errors = 0;
  if (!inside (big) || !inside (big + N - 1) || !inside (table)
      || !inside (&before) || !inside (&after))
    {
      printf ("not in the shared region: big %p table %p, region %p-%p\n",
	      (void *) big, (void *) table, __ompc_shared_start,
	      __ompc_shared_end);
      return 1;
    }
  table[2047] = 11;
#pragma omp parallel reduction (+:errors)
  {
#pragma omp for schedule (static)
    for (long i = 0; i < N; i++)
      big[i] = (double) (i % 1000) + table[i % 3];
    /* After the loop's barrier: elements of the first, the middle and
       the last chunk, written by different threads (nodes).  */
    for (long i = 0; i < N; i += N / 64 + 1)
      if (big[i] != (double) (i % 1000) + table[i % 3])
	errors++;
    if (big[N - 1] != (double) ((N - 1) % 1000) + table[(N - 1) % 3])
      errors++;
    if (table[2047] != 11 || before != 1)
      errors++;
#pragma omp atomic
    after++;
  }
  double s = 0, want = 0;
#pragma omp parallel for reduction (+:s)
  for (long i = 0; i < N; i++)
    s += big[i];
  for (long i = 0; i < N; i++)
    want += (double) (i % 1000) + (i % 3 == 0 ? 3 : i % 3 == 1 ? 5 : 7);
  if (after != omp_get_max_threads ())
    errors++;
  printf ("sum %.0f (want %.0f), %d errors, %d threads\n", s, want, errors,
	  after);
  return errors || s != want;
}
