/* Dynamic, guided and runtime schedules across nodes: every iteration runs
   exactly once, whichever node takes it.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 90 */
#include <omp.h>
#include <stdio.h>

#define N 5000
static unsigned char done[N];
static long sum;

static int
check (const char *what)
{
  for (int i = 0; i < N; i++)
    if (done[i] != 1)
      {
	printf ("%s: iteration %d ran %d times\n", what, i, done[i]);
	return 1;
      }
  if (sum != (long) N * (N - 1) / 2)
    {
      printf ("%s: sum %ld\n", what, sum);
      return 1;
    }
  for (int i = 0; i < N; i++)
    done[i] = 0;
  sum = 0;
  return 0;
}

int
main (void)
{
#pragma omp parallel for schedule (dynamic, 7) reduction (+:sum)
  for (int i = 0; i < N; i++)
    {
      done[i]++;
      sum += i;
    }
  if (check ("dynamic"))
    return 1;
#pragma omp parallel for schedule (guided, 3) reduction (+:sum)
  for (int i = 0; i < N; i++)
    {
      done[i]++;
      sum += i;
    }
  if (check ("guided"))
    return 1;
#pragma omp parallel for schedule (runtime) reduction (+:sum)
  for (int i = N - 1; i >= 0; i--)
    {
      done[i]++;
      sum += i;
    }
  if (check ("runtime"))
    return 1;
  printf ("OK\n");
  return 0;
}
