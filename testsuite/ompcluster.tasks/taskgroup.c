/* taskgroup waits for descendants, nested taskgroups, priorities in a
   one-thread team, detach with omp_fulfill_event, taskyield.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-env: OMP_MAX_TASK_PRIORITY=10 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

int
main (void)
{
  /* The taskgroup waits for grandchildren too; taskwait would not.  */
  int done = 0;
  #pragma omp parallel
  #pragma omp single
  {
    #pragma omp taskgroup
    {
      for (int i = 0; i < 4; i++)
	{
	  #pragma omp task shared(done)
	  {
	    #pragma omp task shared(done)
	    {
	      usleep (2000);
	      #pragma omp atomic
	      done++;
	    }
	  }
	}
    }
    CHECK (done == 4);
    /* Nested taskgroups.  */
    int inner = 0, outer = 0;
    #pragma omp taskgroup
    {
      #pragma omp task shared(outer)
      {
	usleep (3000);
	#pragma omp atomic
	outer++;
      }
      #pragma omp taskgroup
      {
	#pragma omp task shared(inner)
	{
	  usleep (1000);
	  #pragma omp atomic
	  inner++;
	}
      }
      CHECK (inner == 1);
    }
    CHECK (outer == 1);
  }

  /* Priorities: a one-thread team runs the queued tasks highest first.  */
  CHECK (omp_get_max_task_priority () == 10);
  int seq[32], n = 0, started = 0;
  #pragma omp parallel num_threads(1)
  #pragma omp single
  {
    for (int i = 0; i < 32; i++)
      {
	#pragma omp task priority(i % 12) shared(seq, n) firstprivate(i)
	seq[n++] = i % 12;
      }
    started = n;
  }
  CHECK (n == 32);
  if (started == 0)
    for (int i = 1; i < 32; i++)
      CHECK ((seq[i - 1] >= 10 ? 10 : seq[i - 1])
	     >= (seq[i] >= 10 ? 10 : seq[i]));

  /* detach: the task completes when its event is fulfilled, possibly by
     another task.  */
  int stage = 0;
  #pragma omp parallel
  #pragma omp single
  {
    omp_event_handle_t ev;
    #pragma omp task detach(ev) shared(stage)
    {
      stage = 1;
      /* The body ends long before its event is fulfilled.  */
      #pragma omp task shared(stage) firstprivate(ev)
      {
	usleep (2000);
	__atomic_store_n (&stage, 2, __ATOMIC_SEQ_CST);
	omp_fulfill_event (ev);
      }
    }
    #pragma omp taskwait
    CHECK (stage == 2);
  }
  /* An if(0) task with detach, fulfilled inside itself.  */
  #pragma omp parallel
  #pragma omp single
  {
    omp_event_handle_t ev;
    #pragma omp task detach(ev) if(0)
    omp_fulfill_event (ev);
  }
  /* A detached task keeps the region's barrier waiting.  */
  int late = 0;
  #pragma omp parallel shared(late)
  {
    #pragma omp single nowait
    {
      omp_event_handle_t ev;
      #pragma omp task detach(ev) shared(late)
      late = 0;
      #pragma omp task firstprivate(ev) shared(late)
      {
	usleep (3000);
	late = 1;
	omp_fulfill_event (ev);
      }
    }
  }
  CHECK (late == 1);

  /* taskyield is a scheduling point and harmless anywhere.  */
  int y = 0;
  #pragma omp parallel
  {
    #pragma omp taskyield
    #pragma omp single
    {
      #pragma omp task shared(y)
      y = 1;
      #pragma omp taskyield
      #pragma omp taskwait
      CHECK (y == 1);
    }
  }
  return bad;
}
