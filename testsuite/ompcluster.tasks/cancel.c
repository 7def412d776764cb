/* Cancellation with OMP_CANCELLATION=true: cancel for, cancel taskgroup
   (queued tasks never start), cancellation points, omp_get_cancellation,
   and a cancel for in one loop not leaking into the next.  */
/* ompc-compile: plain */
/* ompc-nodes: 1 1x2 1x4 */
/* ompc-env: OMP_CANCELLATION=true OMP_MAX_TASK_PRIORITY=1 */
/* ompc-timeout: 60 */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int bad;
#define CHECK(c) do { if (!(c)) { printf ("%s:%d: %s\n", __FILE__, __LINE__, #c); bad = 1; } } while (0)

int
main (void)
{
  CHECK (omp_get_cancellation () == 1);

  /* cancel for: the loop stops early; the next loops run fully.  */
  int ran = 0, second = 0, third = 0;
  volatile int stop = 1;
  #pragma omp parallel
  {
    #pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < 100000; i++)
      {
	#pragma omp cancel for if (stop)
	#pragma omp atomic
	ran++;
      }
    #pragma omp for
    for (int i = 0; i < 1000; i++)
      {
	#pragma omp cancellation point for
	#pragma omp atomic
	second++;
      }
    #pragma omp for schedule(static)
    for (int i = 0; i < 1000; i++)
      {
	#pragma omp cancel for if (i < 0)
	#pragma omp atomic
	third++;
      }
  }
  CHECK (ran < 100000 && second == 1000 && third == 1000);

  /* cancel taskgroup: tasks queued behind the cancelling one do not
     start; tasks outside the taskgroup are untouched.  */
  int started = 0, outside = 0;
  #pragma omp parallel num_threads(1)
  #pragma omp single
  {
    #pragma omp task shared(outside)
    outside = 1;
    #pragma omp taskgroup
    {
      #pragma omp task shared(started)
      {
	#pragma omp atomic
	started++;
	#pragma omp cancel taskgroup
      }
      for (int i = 0; i < 50; i++)
	{
	  #pragma omp task shared(started)
	  {
	    #pragma omp atomic
	    started++;
	  }
	}
    }
    #pragma omp taskwait
  }
  /* One thread runs the children LIFO: the cancelling task may come
     anywhere, but after it nothing of the group starts.  */
  CHECK (started >= 1 && started <= 51 && outside == 1);
  int started2 = 0;
  #pragma omp parallel num_threads(1)
  #pragma omp single
  #pragma omp taskgroup
  {
    for (int i = 0; i < 50; i++)
      {
	#pragma omp task shared(started2)
	{
	  #pragma omp atomic
	  started2++;
	}
      }
    /* The highest priority: it runs first and the rest never.  */
    #pragma omp task priority(1)
    {
      #pragma omp cancel taskgroup
    }
  }
  CHECK (started2 == 0);

  /* cancel parallel from one thread, no barrier inside: everybody leaves
     at a cancellation point.  */
  int left = 0;
  #pragma omp parallel shared(left)
  {
    if (omp_get_thread_num () == 0)
      {
	#pragma omp cancel parallel
      }
    for (int k = 0; k < 1000; k++)
      {
	usleep (10);
	#pragma omp cancellation point parallel
      }
    #pragma omp atomic
    left++;
  }
  CHECK (left < omp_get_max_threads ());
  return bad;
}
