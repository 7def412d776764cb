/* single (exactly one thread runs each), nowait singles in a row, and
   single with copyprivate broadcasting a value, and master.  */
/* ompc-nodes: 1 1x2 1x3 1x4 2x1 2x2 3x1 */
/* ompc-timeout: 60 */

#include <omp.h>
#include <stdio.h>

int
main (void)
{
  int count[200] = { 0 }, masters = 0, bad = 0;
#pragma omp parallel
  {
    for (int i = 0; i < 100; i++)
      {
#pragma omp single
	count[i]++;
#pragma omp single nowait
	count[100 + i]++;
      }
    for (int r = 0; r < 100; r++)
      {
	int v;
#pragma omp single copyprivate(v)
	v = r * 7 + omp_get_thread_num ();
	if (v / 7 != r)
#pragma omp atomic
	  bad++;
      }
#pragma omp master
    masters++;
  }
  for (int i = 0; i < 200; i++)
    if (count[i] != 1)
      bad++;
  if (bad || masters != 1)
    {
      fprintf (stderr, "bad %d masters %d\n", bad, masters);
      return 1;
    }
  return 0;
}
