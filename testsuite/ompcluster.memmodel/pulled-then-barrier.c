/* A node that pulled another node's release in the middle of an interval
   (an acquire atomic) does not acquire that release again at the next
   barrier (cluster/notices.c, GOMP_CL_LOG_SEQ), but it must acquire
   everything that node released after the pull.  Thread 0 writes its
   part of A and releases it with a flag; the last thread (on the last
   node) acquires the flag, reads A and answers; thread 0 then writes
   the same blocks of A again, which its log keeps as one entry with the
   later release's number, and other blocks (B).  After the barrier every
   thread must see the second values everywhere: a stale copy of thread
   0's part on the reader's node, kept from its read after the pull,
   shows up as the first value.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
#include <omp.h>
#include <stdio.h>

#define N (8 * 1024)
#define ITERS 300
static int a[N] __attribute__ ((aligned (4096)));
static int b[N] __attribute__ ((aligned (4096)));
static int flag __attribute__ ((aligned (4096)));
static int ack __attribute__ ((aligned (4096)));

int
main (void)
{
  long bad = 0, seen_old = 0;
#pragma omp parallel reduction(+:bad, seen_old)
  {
    int t = omp_get_thread_num (), nt = omp_get_num_threads ();
    int lo = (int) ((long) N * t / nt), hi = (int) ((long) N * (t + 1) / nt);
    int lo0 = 0, hi0 = N / nt;
    for (int it = 1; it <= ITERS; it++)
      {
	for (int i = lo; i < hi; i++)
	  a[i] = 3 * it;
	if (t == 0 && nt > 1)
	  {
#pragma omp atomic write release
	    flag = it;
	    int got;
	    do
	      {
#pragma omp atomic read acquire
		got = ack;
	      }
	    while (got != it);
	    for (int i = lo0; i < hi0; i++)
	      a[i] = 3 * it + 1;
	    for (int i = 0; i < N; i += 16)
	      b[i] = it;
	  }
	else if (t == nt - 1 && nt > 1)
	  {
	    int got;
	    do
	      {
#pragma omp atomic read acquire
		got = flag;
	      }
	    while (got != it);
	    /* Thread 0's part, cached here now: its first values at least
	       (the flag's release), maybe already the second.  */
	    for (int i = lo0; i < hi0; i++)
	      {
		if (a[i] < 3 * it)
		  bad++;
		seen_old += a[i] == 3 * it;
	      }
#pragma omp atomic write release
	    ack = it;
	  }
	else if (t == 0)
	  {
	    for (int i = lo0; i < hi0; i++)
	      a[i] = 3 * it + 1;
	    for (int i = 0; i < N; i += 16)
	      b[i] = it;
	  }
#pragma omp barrier
	for (int i = 0; i < N; i++)
	  if (a[i] != (i < hi0 ? 3 * it + 1 : 3 * it))
	    bad++;
	for (int i = 0; i < N; i += 16)
	  if (b[i] != it)
	    bad++;
#pragma omp barrier
      }
  }
  if (bad)
    {
      printf ("FAIL: %ld wrong values\n", bad);
      return 1;
    }
  printf ("OK (the reader saw the first values %ld times)\n", seen_old);
  return 0;
}
