/* Pointers to globals, to the heap and to the master's stack, handed to a
   region and used on every node.  */
/* ompc-nodes: 1 1x2 2x1 2x2 3x1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX 256
static long global_arr[MAX];
static long *global_ptr = global_arr;

int
main (void)
{
  long local[MAX];
  long *heap = malloc (MAX * sizeof (long));
  long *localp = local;
  int team = 0;
  for (int i = 0; i < MAX; i++)
    local[i] = heap[i] = global_arr[i] = -1;
  long seed = 12345;		/* A master's local read on every node.  */
#pragma omp parallel shared (local, heap, localp, seed)
  {
    int me = omp_get_thread_num ();
#pragma omp master
    team = omp_get_num_threads ();
    localp[me] = seed + me;
    heap[me] = 2 * seed + me;
    global_ptr[me] = 3 * seed + me;
  }
  for (int i = 0; i < MAX; i++)
    {
      long want_l = i < team ? seed + i : -1;
      long want_h = i < team ? 2 * seed + i : -1;
      long want_g = i < team ? 3 * seed + i : -1;
      if (local[i] != want_l || heap[i] != want_h || global_arr[i] != want_g)
	{
	  printf ("slot %d: stack %ld heap %ld global %ld\n", i, local[i],
		  heap[i], global_arr[i]);
	  return 1;
	}
    }
  free (heap);
  printf ("OK %d threads\n", team);
  return 0;
}
