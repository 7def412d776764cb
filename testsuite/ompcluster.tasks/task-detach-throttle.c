/* One thread makes 1000 detached tasks, each with a task that depends on
   it, and only then fulfills their events.  The queue grows long, and a
   long queue makes a new task run at once (undeferred); a detached task
   run so would wait for its event, which its creator fulfills only
   later, and a dependent task run so would wait for the detached task:
   both would wait for ever.  Neither is run at once for the length of
   the queue (GCC 12's libgomp fails this program).  */
/* ompc-nodes: 1 2x1 */
/* ompc-output: ^ok$ */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>

#define N 1000

static omp_event_handle_t evs[N];
static int done[N], seen[N], dep[N];

int
main (void)
{
#pragma omp parallel num_threads(1)
#pragma omp single
  {
    for (int i = 0; i < N; i++)
      {
	omp_event_handle_t ev;
#pragma omp task depend(out: dep[i]) detach(ev)
	done[i] = 1;
	evs[i] = ev;
#pragma omp task depend(in: dep[i]) firstprivate(i)
	seen[i] = done[i];
      }
    for (int i = 0; i < N; i++)
      omp_fulfill_event (evs[i]);
  }
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += seen[i] != 1;
  if (bad)
    printf ("%d of %d dependent tasks saw no write\n", bad, N);
  else
    printf ("ok\n");
  return bad != 0;
}
