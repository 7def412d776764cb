/* Combined parallel constructs (a parallel loop the runtime starts for
   the team, parallel sections) are never ended by their threads: GCC's
   code simply returns.  Regions that reuse the team afterwards must still
   find room for any number of nowait loops in a row.  */
/* ompc-nodes: 1 1x2 1x3 2x1 2x2 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

#define N 48

#define K 11

static long a[N], b[N], c[N], d[N], f[N], e[K][N];
static int sec[5];

int
main (void)
{
  int errors = 0;
  for (int round = 0; round < 12; round++)
    {
      /* GCC starts this one as a combined static loop whose threads
	 compute their own iterations and call nothing.  */
#pragma omp parallel for schedule(auto)
      for (long i = 0; i < N; i++)
	d[i] += i;

#pragma omp parallel sections
      {
#pragma omp section
	sec[0]++;
#pragma omp section
	sec[1]++;
#pragma omp section
	sec[2]++;
#pragma omp section
	sec[3]++;
#pragma omp section
	sec[4]++;
      }

#pragma omp parallel for schedule(dynamic, 5)
      for (long i = 0; i < N; i++)
	c[i] += 2;

#pragma omp parallel
      {
#pragma omp for schedule(static, 1) nowait
	for (long i = 0; i < N; i++)
	  a[i] += i;
#pragma omp for schedule(dynamic, 3) nowait
	for (long i = 0; i < N; i++)
	  b[i] += 2 * i;
#pragma omp for schedule(dynamic) nowait
	for (long i = 0; i < N; i++)
	  c[i] += 3 * i;
#pragma omp for schedule(guided) nowait
	for (long i = 0; i < N; i++)
	  f[i] += 1;
	for (int k = 0; k < K; k++)
#pragma omp for schedule(dynamic, 2) nowait
	  for (long i = 0; i < N; i++)
	    e[k][i] += k + i;
      }
    }
  for (long i = 0; i < N; i++)
    if (a[i] != 12 * i || f[i] != 12 || b[i] != 12 * 2 * i || c[i] != 12 * (3 * i + 2)
	|| d[i] != 12 * i)
      {
	printf ("element %ld: %ld %ld %ld %ld\n", i, a[i], b[i], c[i], d[i]);
	errors++;
	break;
      }
  for (int k = 0; k < K; k++)
    for (long i = 0; i < N; i++)
      if (e[k][i] != 12 * (k + i))
	{
	  printf ("loop %d, element %ld: %ld\n", k, i, e[k][i]);
	  errors++;
	  k = K;
	  break;
	}
  for (int s = 0; s < 5; s++)
    if (sec[s] != 12)
      {
	printf ("section %d ran %d times\n", s, sec[s]);
	errors++;
      }
  if (errors)
    return 1;
  puts ("ok");
  return 0;
}
