/* Pointers to globals, to the master's stack and to the heap, handed to
   parallel regions and dereferenced on every node; writes through them
   are seen by the master after the region.
   ompc-nodes: 1 1x2 2x1 2x2 3x1
   ompc-timeout: 120
   ompc-output: pointers ok  */

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

struct node { int v; struct node *next; };

static int garr[256];
static int *gptr = &garr[10];
static struct node chain[8];

int
main (void)
{
  int local[256];
  int *lp = local;
  for (int i = 0; i < 256; i++)
    local[i] = i;
  for (int i = 0; i < 8; i++)
    {
      chain[i].v = i;
      chain[i].next = i < 7 ? &chain[i + 1] : NULL;
    }
  int *heap = malloc (256 * sizeof (int));
  int n = 0;
#pragma omp parallel shared(lp, heap)
  {
    int t = omp_get_thread_num ();
#pragma omp single
    n = omp_get_num_threads ();
    int s = 0;
    for (struct node *p = chain; p; p = p->next)
      s += p->v;
    lp[100 + t] = s + lp[t];	/* The master's stack.  */
    garr[t] = t * 2;
    heap[t] = gptr[-10 + t] + 1;	/* Reads garr[t] written above.  */
  }
  for (int t = 0; t < n; t++)
    if (local[100 + t] != 28 + t || garr[t] != 2 * t || heap[t] != 2 * t + 1)
      {
	printf ("thread %d: %d %d %d\n", t, local[100 + t], garr[t], heap[t]);
	return 1;
      }
  free (heap);
  printf ("pointers ok (%d threads)\n", n);
  return 0;
}
