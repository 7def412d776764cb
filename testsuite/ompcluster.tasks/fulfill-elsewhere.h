/* The program of task-fulfill-elsewhere.c and of
   ompcluster.failures/fulfill-elsewhere.c.  */
#include <omp.h>
#include <stdio.h>

static omp_event_handle_t handle;
static int ready, value, seen = -1, dep;

int
main (void)
{
#pragma omp parallel
  {
    int me = omp_get_thread_num (), last = omp_get_num_threads () - 1;
    if (me == 0)
      {
	omp_event_handle_t ev;
#pragma omp task depend(out: dep) detach(ev)
	;
#pragma omp task depend(in: dep)
	seen = value;
	handle = ev;
#pragma omp atomic write release
	ready = 1;
      }
    if (me == last)
      {
	int r = 0;
	while (!r)
	  {
#pragma omp atomic read acquire
	    r = ready;
	  }
	value = 42;
	omp_fulfill_event (handle);
      }
  }
  if (seen != 42)
    printf ("the dependent task saw %d, not 42\n", seen);
  else
    printf ("ok\n");
  return seen != 42;
}
