/* single with copyprivate across nodes: the value the single thread read
   (a scalar, a pointer and a struct) reaches every thread of every node;
   single's nowait and master regions see consistent data afterwards.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

struct big
{
  double v[64];
  int tag;
};

static int errors;
static int source[16] = { 3, 1, 4, 1, 5, 9, 2, 6 };

int
main (void)
{
#pragma omp parallel
  {
    for (int round = 0; round < 20; round++)
      {
	int x;
	int *p;
	struct big b;
#pragma omp single copyprivate (x, p, b)
	{
	  x = round * 7 + 1;
	  p = &source[round % 8];
	  for (int i = 0; i < 64; i++)
	    b.v[i] = round + i * 0.5;
	  b.tag = round;
	}
	int ok = x == round * 7 + 1 && *p == source[round % 8]
		 && b.tag == round && b.v[63] == round + 31.5;
	if (!ok)
	  {
#pragma omp atomic
	    errors++;
	  }
      }
  }
  if (errors)
    {
      printf ("%d wrong copyprivate values\n", errors);
      return 1;
    }
  printf ("OK\n");
  return 0;
}
