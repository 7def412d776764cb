/* Message passing through memory-order atomics, every order that carries
   data: each thread writes its part of DATA, publishes READY[T] with a
   release (or seq_cst, or acq_rel) store and waits for the other
   threads' flags with acquire (seq_cst, acq_rel) loads; then it must see
   all their data (OpenMP 5.1 section 1.4.4: such atomics are release and
   acquire flushes).  Repeated in many rounds with fresh values, also
   through C11-style __atomic builtins.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 120 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 512
#define MAXT 16
static long data[MAXT * N];
static int ready[MAXT];

int
main (void)
{
  long bad = 0;
  for (int round = 1; round <= 30; round++)
    {
      int kind = round % 5;
#pragma omp parallel reduction(+:bad)
      {
	int t = omp_get_thread_num (), nt = omp_get_num_threads ();
	if (nt > MAXT)
	  abort ();
	for (long i = t * N; i < (t + 1) * N; i++)
	  data[i] = round * 100000L + i;
	switch (kind)
	  {
	  case 0:
#pragma omp atomic write release
	    ready[t] = round;
	    break;
	  case 1:
#pragma omp atomic write seq_cst
	    ready[t] = round;
	    break;
	  case 2:
	    {
	      int old;
#pragma omp atomic capture acq_rel
	      { old = ready[t]; ready[t] = round; }
	      (void) old;
	    }
	    break;
	  default:
	    __atomic_store_n (&ready[t], round,
			      kind == 3 ? __ATOMIC_RELEASE : __ATOMIC_SEQ_CST);
	  }
	for (int o = 0; o < nt; o++)
	  {
	    int f = 0;
	    while (f != round)
	      switch (kind)
		{
		case 0:
#pragma omp atomic read acquire
		  f = ready[o];
		  break;
		case 1:
#pragma omp atomic read seq_cst
		  f = ready[o];
		  break;
		case 2:
#pragma omp atomic read acquire
		  f = ready[o];
		  break;
		default:
		  f = __atomic_load_n (&ready[o], kind == 3 ? __ATOMIC_ACQUIRE
							  : __ATOMIC_SEQ_CST);
		}
	    for (long i = o * N; i < (o + 1) * N; i++)
	      bad += data[i] != round * 100000L + i;
	  }
      }
    }
  if (bad)
    {
      printf ("stale elements seen: %ld\n", bad);
      return 1;
    }
  return 0;
}
