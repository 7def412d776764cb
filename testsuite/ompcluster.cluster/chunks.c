/* Chunk sizes of dynamic and guided loops across nodes (OpenMP 5.1
   section 2.11.4): a dynamic chunk has exactly the chunk size and a guided
   one at least that, except for the chunk holding the loop's last
   iteration, although each node takes ranges of many chunks from the
   loop's global counter and splits them among its threads.  Each thread
   records the runs of consecutive iterations it got.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

#define N 1003
static int owner[N];

/* Checks that every maximal run of one thread's consecutive iterations
   splits into chunks of CHUNK (EXACT) or at least CHUNK, the last run of
   the loop excepted.  */
static int
check (const char *what, int chunk, int exact)
{
  int bad = 0, start = 0;
  for (int i = 1; i <= N; i++)
    if (i == N || owner[i] != owner[start])
      {
	int len = i - start;
	if (i != N && (exact ? len % chunk != 0 : len < chunk))
	  bad++;
	start = i;
      }
  if (bad)
    printf ("%s: %d runs of the wrong length\n", what, bad);
  return bad;
}

int
main (void)
{
  int fails = 0;
#pragma omp parallel
  {
#pragma omp for schedule(monotonic: dynamic, 5)
    for (int i = 0; i < N; i++)
      owner[i] = omp_get_thread_num ();
#pragma omp single
    fails += check ("dynamic,5", 5, 1);
#pragma omp for schedule(monotonic: guided, 7)
    for (int i = 0; i < N; i++)
      owner[i] = omp_get_thread_num ();
#pragma omp single
    fails += check ("guided,7", 7, 0);
#pragma omp for schedule(dynamic, 3)
    for (unsigned long long i = 0; i < N; i++)
      owner[i] = omp_get_thread_num ();
#pragma omp single
    fails += check ("dynamic,3 unsigned long long", 3, 1);
  }
  if (fails)
    return 1;
  printf ("OK\n");
  return 0;
}
